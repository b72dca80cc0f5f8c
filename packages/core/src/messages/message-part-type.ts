import { z } from 'zod';

/** What a message shows in a UI. Absent means plain `content`. */
export const MessagePartTypeSchema = z.enum([
  /** Ordinary text. */
  'content',
  /** Model reasoning shown to the user (collapsed by default). */
  'thinking',
  /** An assistant message that requests tool calls. */
  'tool_call',
  /** A tool's result (protocol `tool` message). */
  'tool_result',
  /** Display view only: a tool call merged with its result (see `ToolExecutionMetadata`). */
  'tool_execution',
  /** A failure recorded as an assistant message, so the user can say "continue". */
  'error',
  /** An interactive widget (see `WidgetPayload`). */
  'widget',
]);

export type MessagePartType = z.infer<typeof MessagePartTypeSchema>;
