import { CairnError, type ValidationIssue, validationIssues } from '@cairn/core';
import { z } from 'zod';

/** Where a workflow run stands. `completed` switches the prompt to the post-completion profile. */
export const RUN_STATUSES = ['active', 'completed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const name = z.string().min(1);

/** A step of the workflow: its id, and its name when it has one. */
export const RunStepRefSchema = z.strictObject({ id: name, name: name.optional() });

/** A way out of the current step. */
export const RunEdgeSchema = z.strictObject({
  /** When to take it ("approved", "needs changes"); absent for a plain transition. */
  label: z.string().optional(),
  /** The id of the step it leads to. */
  targetNodeId: name,
  /** The edge to take when no other one applies. */
  isDefault: z.boolean().optional(),
});

/**
 * What the model is told about the workflow run it works in, in run mode. While the
 * run is active it sees the current step, its instruction and the outgoing edges; once it is
 * `completed` none of those are sent, only that the workflow is done. Unknown fields are refused,
 * so a typo (or an older nested `state`/`graph` shape) fails loudly instead of being ignored.
 */
export const RunContextSchema = z.strictObject({
  packageName: name,
  workflowName: name,
  /** Absent means `active`. */
  status: z.enum(RUN_STATUSES).optional(),
  currentStepId: name.optional(),
  currentStepName: name.optional(),
  /** What the current step asks for, sent as written. */
  stepInstruction: z.string().optional(),
  /** Steps done so far, in order: ids, or ids with names. */
  stepsCompleted: z.array(z.union([name, RunStepRefSchema])).optional(),
  outgoingEdges: z.array(RunEdgeSchema).optional(),
});

export type RunStepRef = z.infer<typeof RunStepRefSchema>;
export type RunEdge = z.infer<typeof RunEdgeSchema>;
export type RunContext = z.infer<typeof RunContextSchema>;

/** Every reason `value` is not a `RunContext`; empty when it is. */
export function runContextIssues(value: unknown): ValidationIssue[] {
  return validationIssues(RunContextSchema, value);
}

/** Returns `value` typed as a `RunContext`, or throws `INVALID_ARGUMENT` naming the first bad field. */
export function parseRunContext(value: unknown): RunContext {
  const issues = runContextIssues(value);
  const first = issues[0];
  if (first === undefined) return value as RunContext;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new CairnError('INVALID_ARGUMENT', `Invalid run context at ${first.path}: ${first.message}${more}`, {
    details: { issues },
  });
}
