import { z } from 'zod';
import { JsonValueSchema } from './json-value.js';

/** The interactive elements a message can carry in a UI. */
export const KNOWN_WIDGET_TYPES = ['choice', 'confirm', 'form', 'feedback', 'progress'] as const;

/** A known widget type, or one added by a newer version (a UI that does not know it shows the text). */
export type WidgetType = (typeof KNOWN_WIDGET_TYPES)[number] | (string & {});

// Open for the same reason as MessagePartTypeSchema.
export const WidgetTypeSchema = z.union([
  z.enum(KNOWN_WIDGET_TYPES),
  z.string().min(1),
]) as unknown as z.ZodType<WidgetType>;

/** One selectable option of a `choice` widget. */
export const WidgetOptionSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  description: z.string().optional(),
  value: JsonValueSchema.optional(),
});

/** A button; pressing it sends `value` (or `id`) back to the agent. */
export const WidgetActionSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  style: z.enum(['primary', 'secondary', 'danger']).optional(),
  value: JsonValueSchema.optional(),
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
  response: JsonValueSchema.optional(),
});

export type WidgetOption = z.infer<typeof WidgetOptionSchema>;
export type WidgetAction = z.infer<typeof WidgetActionSchema>;
export type WidgetFeedbackItem = z.infer<typeof WidgetFeedbackItemSchema>;
export type WidgetPayload = z.infer<typeof WidgetPayloadSchema>;
