import { z } from 'zod';

/** The interactive elements a message can carry in a UI. */
export const WidgetTypeSchema = z.enum(['choice', 'confirm', 'form', 'feedback', 'progress']);

/** One selectable option of a `choice` widget. */
export const WidgetOptionSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  description: z.string().optional(),
  value: z.unknown().optional(),
});

/** A button; pressing it sends `value` (or `id`) back to the agent. */
export const WidgetActionSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  style: z.enum(['primary', 'secondary', 'danger']).optional(),
  value: z.unknown().optional(),
});

/** One line of a `feedback` widget: something the user rates or comments on. */
export const WidgetFeedbackItemSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  rating: z.number().optional(),
  comment: z.string().optional(),
});

export const WidgetPayloadSchema = z.object({
  type: WidgetTypeSchema,
  id: z.string().min(1).optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  options: z.array(WidgetOptionSchema).optional(),
  /** For `choice`: whether several options may be chosen. */
  multiSelect: z.boolean().optional(),
  actions: z.array(WidgetActionSchema).optional(),
  feedback: z.array(WidgetFeedbackItemSchema).optional(),
  /** For `progress`: completion between 0 and 1. */
  progress: z.number().min(0).max(1).optional(),
  /** Whatever the user answered, once they have. */
  response: z.unknown().optional(),
});

export type WidgetType = z.infer<typeof WidgetTypeSchema>;
export type WidgetOption = z.infer<typeof WidgetOptionSchema>;
export type WidgetAction = z.infer<typeof WidgetActionSchema>;
export type WidgetFeedbackItem = z.infer<typeof WidgetFeedbackItemSchema>;
export type WidgetPayload = z.infer<typeof WidgetPayloadSchema>;
