import { type ConversationStore, definedFields, type Tool } from '@cairn/core';
import { defineTool, toolFailure } from '@cairn/loop';
import { z } from 'zod';
import type { RuntimeEvent, RuntimeLogger } from '../runtime-types.js';
import { completeStep, transitionText } from './complete-step.js';
import { readRunState } from './read-run-records.js';
import { runStateMessage } from './run-records.js';
import { type RunState, runConversationId } from './run-state.js';
import type { RunStepChangedEvent } from './run-types.js';
import type { WorkflowDefinition } from './workflow-definition.js';

/** The name the model calls the step tool by. */
export const COMPLETE_STEP_TOOL_NAME = 'complete_step';

export interface WorkflowToolsOptions {
  store: ConversationStore;
  runId: string;
  /** The workflow the run follows (its `run_workflow` record). */
  workflow: WorkflowDefinition;
  generateId: () => string;
  now: () => Date;
  /** `run_step_changed`, and `message_persisted` for each state record. A listener that throws is ignored. */
  onEvent?: (event: RuntimeEvent | RunStepChangedEvent) => void;
  /** The run's event count, written in the state records (`streamSequence`). */
  streamSequence?: () => number;
  logger?: RuntimeLogger;
  /** Page size of the state reader. */
  pageSize?: number;
}

/** What `complete_step` returns (kept as the call's structured result); the model reads `text`. */
export interface CompleteStepOutput {
  from: string;
  to: string;
  status: RunState['status'];
  edge?: string;
  summary?: string;
  text: string;
}

const CompleteStepInputSchema = z.object({
  summary: z.string().optional().describe('What was done in this step, in a sentence or two.'),
  edge: z
    .string()
    .optional()
    .describe(
      'Which way the workflow goes on: the label of an outgoing edge (or the id of the step it leads to). Leave it out to take the default edge, or the only one.',
    ),
  step: z
    .string()
    .optional()
    .describe('The id of the step you are completing; the call fails if it is not the current step.'),
});

/**
 * The tools a run's turns get beside the runtime's (`TurnRequest.extraTools`), bound to one run:
 * `complete_step`. Each call reads the state from the store (never from memory), and a transition
 * is appended as a new `run_state` record before the call returns, so a crash right after it keeps
 * it. Calls are handled one at a time, so two calls in one answer complete two steps in order.
 * The result text tells the model the new step, its instruction and its edges: the system
 * prompt's workflow block stays as it was for the rest of the turn (it is built once per turn).
 */
export function createWorkflowTools(options: WorkflowToolsOptions): Tool[] {
  const { store, runId, workflow, logger } = options;
  const conversationId = runConversationId(runId);
  let tail: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task, task);
    tail = result.catch(() => undefined);
    return result;
  };
  const emit = (event: RuntimeEvent | RunStepChangedEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      // The step has moved on and is stored: a failing listener must not make the call a failure.
      logger?.warn(
        { runId, error: error instanceof Error ? error.name : typeof error },
        'run event listener failed',
      );
    }
  };

  const completeStepTool = defineTool({
    name: COMPLETE_STEP_TOOL_NAME,
    description:
      'Mark the current workflow step as done and move the workflow on. Call it once the step’s instruction is fulfilled, ' +
      'naming the outgoing edge to take when the step has several. Completing the last step completes the workflow. ' +
      'The result tells you the new current step, its instruction and its edges.',
    category: 'workflow',
    input: CompleteStepInputSchema,
    toModelOutput: (output: CompleteStepOutput) => output.text,
    execute: (input) =>
      oneAtATime(async (): Promise<CompleteStepOutput> => {
        const state = await readRunState(
          store,
          runId,
          options.pageSize === undefined ? {} : { pageSize: options.pageSize },
        );
        if (state === undefined)
          throw toolFailure(`There is no state for run ${runId}: the step cannot be completed.`);
        const at = options.now().toISOString();
        const transition = completeStep(workflow, state, input, at);
        if (!transition.ok) throw toolFailure(transition.message, undefined, transition.code);
        // The call succeeds, and a success clears the loop's failing-call state: the record says so.
        const next: RunState = {
          ...transition.state,
          lastFailFingerprint: null,
          consecutiveFailCount: 0,
          streamSequence: options.streamSequence?.() ?? state.streamSequence,
        };
        const record = runStateMessage(next, { id: options.generateId(), createdAt: at });
        const { messages } = await store.append(conversationId, [record], { idempotencyKey: record.id });
        for (const message of messages)
          emit({ type: 'runtime', event: 'message_persisted', conversationId, message });
        const edge = transition.edge?.label;
        emit({
          type: 'runtime',
          event: 'run_step_changed',
          runId,
          conversationId,
          from: transition.from,
          to: transition.to,
          status: next.status,
          ...definedFields({ edge, summary: input.summary }),
        });
        logger?.info(
          { runId, from: transition.from, to: transition.to, status: next.status },
          'run step completed',
        );
        return {
          from: transition.from,
          to: transition.to,
          status: next.status,
          ...definedFields({ edge, summary: input.summary }),
          text: transitionText(workflow, { ...transition, state: next }),
        };
      }),
  });
  return [completeStepTool as Tool];
}
