import { z } from 'zod';
import { ContentPartSchema } from '../content/content-part.js';
import { JsonValueSchema } from '../messages/json-value.js';
import { ApprovalOutcomeSchema } from '../messages/ledger-schemas.js';

/** A file change, from the tool's input or its structured result. */
export const DiffDetailsSchema = z.object({
  type: z.literal('diff'),
  filePath: z.string(),
  oldContent: z.string(),
  newContent: z.string(),
  /** A unified diff of the change, when known. */
  patch: z.string().optional(),
});

/** Paths a tool found or listed. */
export const FileListDetailsSchema = z.object({
  type: z.literal('fileList'),
  files: z.array(z.string()),
});

/** What a shell command printed and how it ended; `exitCode` is `null` when it was killed. */
export const CommandOutputDetailsSchema = z.object({
  type: z.literal('commandOutput'),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int().nullable(),
});

/** Structured details of a tool execution, so a UI never parses raw tool output. */
export const ToolDetailsSchema = z.discriminatedUnion('type', [
  DiffDetailsSchema,
  FileListDetailsSchema,
  CommandOutputDetailsSchema,
]);

/**
 * A tool call merged with its result (the display view's `tool_execution` message, RFC-20250124-001).
 * Derived from the log, never stored in place of it.
 */
export const ToolExecutionMetadataSchema = z.object({
  toolName: z.string().min(1),
  toolUseId: z.string().min(1),
  /** The tool's input as the model sent it (parsed JSON when it parsed). */
  input: JsonValueSchema,
  /**
   * `unfinished`: the result never came (the agent stopped, or it timed out); output is empty.
   * `running`: live display only, the call started and its result is awaited; the completed (or
   * unfinished) execution with the same message id replaces it. `awaiting_approval`: it waits for a
   * person's decision (see `approval`); it has not run. Absent means completed.
   */
  status: z.enum(['completed', 'running', 'unfinished', 'awaiting_approval']).optional(),
  /**
   * The call's approval, when it asked for one: the request's id (what a decision names), who may
   * decide and until when; the decision once made. With `status: 'awaiting_approval'` it waits for one.
   */
  approval: z
    .object({
      id: z.string().min(1),
      askedOf: z.string().min(1),
      expiresAt: z.string().optional(),
      outcome: ApprovalOutcomeSchema.optional(),
      decidedBy: z.string().optional(),
      decidedAt: z.string().optional(),
      /** Why, in the decider's words (a denial's reason). */
      reason: z.string().optional(),
    })
    .optional(),
  /** The ledger's attempt number when the call ran more than once (an idempotent call run again). */
  attempt: z.number().int().positive().optional(),
  /** The tool's textual output (or error message), a placeholder such as `[image]` for each media part. */
  output: z.string(),
  /**
   * The result's parts when it holds more than text (an image a Read returned), in order, so a view
   * can show them: `blob` sources once the log is stored (the store serves their bytes), `base64`
   * while live.
   */
  content: z.array(ContentPartSchema).optional(),
  isError: z.boolean(),
  durationMs: z.number().nonnegative(),
  /** One line for the UI: "Updated src/a.ts", "Ran `ls -la`", "Read failed: …". */
  summary: z.string(),
  details: ToolDetailsSchema.optional(),
});

export type DiffDetails = z.infer<typeof DiffDetailsSchema>;
export type FileListDetails = z.infer<typeof FileListDetailsSchema>;
export type CommandOutputDetails = z.infer<typeof CommandOutputDetailsSchema>;
export type ToolDetails = z.infer<typeof ToolDetailsSchema>;
export type ToolExecutionMetadata = z.infer<typeof ToolExecutionMetadataSchema>;
