import { z } from 'zod';
import { JsonValueSchema } from './json-value.js';

const id = z.string().min(1);
const timestamp = z.iso.datetime({ offset: true });

/**
 * Where a record's call stands: the assistant message that made it and the call's place in its
 * `tool_calls`. Records are keyed by these, never by the provider's call id alone (some servers
 * reuse `call_0` in every answer).
 */
const CallRefSchema = z.object({
  assistantMessageId: id,
  callIndex: z.number().int().nonnegative(),
  toolCallId: id,
  toolName: id,
});

/**
 * An approval asked for (`approval_request` record): the turn that met it ended waiting, and it stays
 * pending until a decision record answers it.
 */
export const ApprovalRequestSchema = CallRefSchema.extend({
  kind: z.literal('request'),
  /** The input to approve, as the tool validated it. */
  input: JsonValueSchema,
  /** Who may decide: `local` (the person at the terminal), `caller:<hash>` (one API caller) or `any`. */
  askedOf: id,
  /** After this, the request is decided `expired` by whoever sees it next. */
  expiresAt: timestamp.optional(),
});

/** How an approval was decided. `expired` and `superseded` are stored decisions too. */
export const ApprovalOutcomeSchema = z.enum(['approve', 'deny', 'edit', 'expired', 'superseded']);

/** The one decision of a request (`approval_decision` record): its id is the request's, plus `.d`. */
export const ApprovalDecisionSchema = z.object({
  kind: z.literal('decision'),
  /** The request's message id. */
  requestId: id,
  outcome: ApprovalOutcomeSchema,
  /** `edit` only: the input to run with instead (validated by the tool again). */
  input: JsonValueSchema.optional(),
  /** Why, in the decider's words (shown to the model with a denial). */
  reason: z.string().optional(),
  /** `local`, `caller:<hash>`, or `system` (an expiry, a new message that superseded it). */
  decidedBy: id,
  decidedAt: timestamp,
  /**
   * A random id of the claim that stored it: tells a retried append that had landed from another
   * decider's identical decision (the same caller deciding the same way at the same instant).
   */
  claimId: id.optional(),
});

/** The `approval` field of an approval record. */
export const ApprovalRecordSchema = z.discriminatedUnion('kind', [
  ApprovalRequestSchema,
  ApprovalDecisionSchema,
]);

/**
 * A tool call about to run (`tool_intent` record), stored before the tool starts: a call with an
 * intent and no result was interrupted while it ran, and is settled by the tool's `idempotent` flag.
 */
export const ToolIntentSchema = CallRefSchema.extend({
  /**
   * 1 for the first run, +1 for each run again after an interruption. An idempotent call's first run
   * stores no intent (only runs from a resume are counted), so its first intent is attempt 2.
   */
  attempt: z.number().int().positive(),
  /** The input it runs with (an edited approval's, when edited). */
  input: JsonValueSchema,
  /** What the tool declared when it started: may it run twice. */
  idempotent: z.boolean(),
  /** The process that runs it (host, pid, a random token): tells its own claim from another's. */
  owner: id,
});

export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
export type ApprovalOutcome = z.infer<typeof ApprovalOutcomeSchema>;
export type ApprovalRecord = z.infer<typeof ApprovalRecordSchema>;
export type ToolIntent = z.infer<typeof ToolIntentSchema>;
