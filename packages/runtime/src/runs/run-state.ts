import { RUN_STATUSES } from '@cairn/context-builder';
import { assertSafeId, CairnError, isSafeId } from '@cairn/core';
import { z } from 'zod';
import { WorkflowDefinitionSchema } from './workflow-definition.js';

const RUN_CONVERSATION_PREFIX = 'run-';

const name = z.string().min(1);

/**
 * Where a run stands: its step, the steps done, its status and the loop's failing-call state, in
 * one record. Every change is a new record appended to the run's own conversation; the current
 * state is the last one.
 */
export const RunStateSchema = z.object({
  runId: name.refine(isSafeId, { message: 'not a safe id' }),
  packageName: name,
  workflowId: name,
  workflowName: name,
  /** `completed` once the last step was completed; the run then answers follow-up questions only. */
  status: z.enum(RUN_STATUSES),
  /** The step being worked on; once `completed`, the last step completed. */
  currentNodeId: name,
  /** Node ids in the order their steps were completed (a step on a cycle appears once per pass). */
  stepsCompleted: z.array(name),
  /** What the run was started with. */
  input: z.string().optional(),
  startedAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  /** The loop's failing-call state, carried between turns so a call failing again and again trips `LOOP_STUCK`. */
  lastFailFingerprint: z.string().nullable(),
  consecutiveFailCount: z.number().int().nonnegative(),
  /** Events delivered for the run so far, over all its turns: the next event is number `streamSequence + 1`. */
  streamSequence: z.number().int().nonnegative(),
});

export type RunState = z.infer<typeof RunStateSchema>;

/**
 * The workflow a run follows, stored as the first message of its conversation when it starts: the
 * run keeps the definition it started with, whatever later happens to the runtime's packages (and
 * a definition given inline is still there after a restart).
 */
export const RunWorkflowRecordSchema = z.object({
  packageName: name,
  workflow: WorkflowDefinitionSchema,
});

export type RunWorkflowRecord = z.infer<typeof RunWorkflowRecordSchema>;

/** Throws `INVALID_ID` unless `runId` is a safe id short enough for its conversation id. */
export function assertRunId(runId: unknown): asserts runId is string {
  assertSafeId('runId', runId);
  if (!isSafeId(`${RUN_CONVERSATION_PREFIX}${runId}`)) {
    throw new CairnError(
      'INVALID_ID',
      `Invalid runId: at most ${128 - RUN_CONVERSATION_PREFIX.length} characters (its conversation is "run-<runId>")`,
      { details: { kind: 'runId' } },
    );
  }
}

/** The conversation that holds a run's messages and state: `run-<runId>`. Checks the id first. */
export function runConversationId(runId: string): string {
  assertRunId(runId);
  return `${RUN_CONVERSATION_PREFIX}${runId}`;
}

/** The run id of a run conversation id; undefined for any other conversation. */
export function runIdOfConversation(conversationId: string): string | undefined {
  if (!conversationId.startsWith(RUN_CONVERSATION_PREFIX)) return undefined;
  const runId = conversationId.slice(RUN_CONVERSATION_PREFIX.length);
  return isSafeId(runId) ? runId : undefined;
}
