import {
  CairnError,
  type ConversationMessage,
  definedFields,
  KeyedSerialQueue,
  type ModelAdapter,
} from '@cairn/core';

import { runTurn } from '../run-turn.js';
import { owesAnswer } from '../something-to-answer.js';
import { storedUserMessage } from '../stored-messages.js';
import type { TurnEnvironment } from '../turn-environment.js';
import { loadRunState, type ReadRunRecordOptions, readRunWorkflow } from './read-run-records.js';
import { recoverRuns } from './recover-runs.js';
import { runContextFor } from './run-context-for.js';
import { withRunLease } from './run-lease.js';
import { runStateMessage, runWorkflowMessage } from './run-records.js';
import {
  assertRunId,
  type RunState,
  type RunWorkflowRecord,
  runConversationId,
  runIdOfConversation,
} from './run-state.js';
import type { RunApi, RunContinueParams, RunEvent, RunPage, RunResult, RunStartParams } from './run-types.js';
import type { WorkflowPackage } from './workflow-definition.js';
import { createWorkflowRegistry, type WorkflowRegistry } from './workflow-registry.js';
import { createWorkflowTools } from './workflow-tools.js';

/** The user message a run starts with when `start` is given no input. */
export const RUN_START_TEXT = 'Start the workflow.';
/** The user message `continue` stores when given none and the log has nothing waiting for an answer. */
export const RUN_CONTINUE_TEXT = 'Continue.';

export interface RunApiOptions {
  /** The runtime's turn environment: store, tools, compression, ids, clock, logger. */
  env: TurnEnvironment;
  /** The model of a turn that names none. */
  model: ModelAdapter;
  /** The runtime's queue, so a run's turns (and chats on its conversation) never interleave. Default: its own. */
  queue?: KeyedSerialQueue;
  /** The workflows `start` can name, checked now (`INVALID_ARGUMENT` naming the package and field). */
  workflows?: readonly WorkflowPackage[] | WorkflowRegistry;
  /** Ids of new runs; default `env.generateId`. */
  generateRunId?: () => string;
  /** Page size of the state reader (default 50). */
  statePageSize?: number;
  /** How long a run's lease lasts unrenewed (default 30 s): how soon a dead process's run moves. */
  leaseTtlMs?: number;
}

/** The default `leaseTtlMs`. */
export const DEFAULT_RUN_LEASE_TTL_MS = 30_000;

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

function checkText(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CairnError('INVALID_ARGUMENT', `${name} must be a non-empty string when given`);
  }
  return value;
}

// What the model would answer if the turn had no new user message: a user message, a tool result,
// or a call whose result never came (the context builder answers it as interrupted).
const sameFailState = (a: RunState, b: Pick<RunState, 'lastFailFingerprint' | 'consecutiveFailCount'>) =>
  a.lastFailFingerprint === b.lastFailFingerprint && a.consecutiveFailCount === b.consecutiveFailCount;

/**
 * Workflow runs on top of `runTurn`. A run lives in its own conversation `run-<runId>`:
 * the workflow it follows (first record), its state (a `run_state` record per change; the last is
 * current) and every message of its turns, all with `mode: 'run'` and `runId`. Nothing is kept in
 * memory between turns: each turn reads the state from the store, so a fresh process continues a
 * run exactly where it stood. The turns of one run are serialised on the runtime's queue.
 */
export function createRunApi(options: RunApiOptions): RunApi {
  const { env } = options;
  const { store, logger } = env;
  const queue = options.queue ?? new KeyedSerialQueue();
  const registry =
    options.workflows !== undefined && !Array.isArray(options.workflows) && 'resolve' in options.workflows
      ? options.workflows
      : createWorkflowRegistry((options.workflows as readonly WorkflowPackage[] | undefined) ?? []);
  const generateRunId = options.generateRunId ?? env.generateId;
  const readOptions: ReadRunRecordOptions =
    options.statePageSize === undefined ? {} : { pageSize: options.statePageSize };
  const lease = { owner: env.ledger.owner, ttlMs: options.leaseTtlMs ?? DEFAULT_RUN_LEASE_TTL_MS };
  // A run's turns hold its lease: one process works on a run at a time, and a dead one's run moves.
  const leased = <T>(
    runId: string,
    signal: AbortSignal | undefined,
    work: (signal?: AbortSignal) => Promise<T>,
  ) => withRunLease(store, runId, lease, signal, work);
  const withSignal = <P extends { signal?: AbortSignal }>(params: P, signal: AbortSignal | undefined): P =>
    signal === undefined ? params : { ...params, signal };

  async function workflowOf(runId: string): Promise<RunWorkflowRecord> {
    const record = await readRunWorkflow(store, runId, readOptions);
    if (record === undefined) {
      throw new CairnError('STORE_CORRUPT', `Run ${runId} has a state but no workflow record`, {
        details: { runId },
      });
    }
    return record;
  }

  async function turn(
    runId: string,
    record: RunWorkflowRecord,
    state: RunState,
    inputs: ConversationMessage[],
    params: RunStartParams | RunContinueParams,
    emitted: RunEvent[] = [],
  ): Promise<RunResult> {
    const conversationId = runConversationId(runId);
    let sequence = state.streamSequence;
    const emit = (event: RunEvent) => {
      sequence++;
      params.onEvent?.(event, sequence);
    };
    // The run's own records are stored whatever the listener does: its failure is only logged.
    const report = (event: RunEvent) => {
      try {
        emit(event);
      } catch (error) {
        logger?.warn(
          { runId, error: error instanceof Error ? error.name : typeof error },
          'run event listener failed',
        );
      }
    };
    for (const event of emitted) report(event);
    const { workflow } = record;
    const agent = params.agent;
    const session = {
      mode: 'run' as const,
      runId,
      ...(agent?.id === undefined ? {} : { agentId: agent.id }),
    };
    // A completed run keeps the step tool (calling it says the run is complete): a history holding
    // its calls sent with no tools at all is refused by some providers (Anthropic, Bedrock).
    const extraTools = createWorkflowTools({
      store,
      runId,
      workflow,
      generateId: env.generateId,
      now: env.now,
      onEvent: report,
      streamSequence: () => sequence,
      ...definedFields({ logger, pageSize: options.statePageSize }),
    });
    const result = await runTurn(env, {
      conversationId,
      model: params.model ?? options.model,
      session,
      inputs,
      runContext: runContextFor(workflow, state),
      extraTools,
      failState: {
        lastFailFingerprint: state.lastFailFingerprint,
        consecutiveFailCount: state.consecutiveFailCount,
      },
      ...definedFields({ agent, dataContext: params.dataContext, signal: params.signal }),
      onEvent: emit,
    });

    // The state as the turn left it (a step tool may have moved it), plus the loop's fail state and
    // the events delivered, in a new record when they changed.
    let error = result.error;
    let latest = state;
    try {
      latest = await loadRunState(store, runId, readOptions);
      const failState = result.loop ?? latest;
      if (!sameFailState(latest, failState) || latest.streamSequence !== sequence) {
        const next: RunState = {
          ...latest,
          lastFailFingerprint: failState.lastFailFingerprint,
          consecutiveFailCount: failState.consecutiveFailCount,
          streamSequence: sequence + 1,
          updatedAt: env.now().toISOString(),
        };
        const message = runStateMessage(next, { id: env.generateId(), createdAt: next.updatedAt });
        const { messages } = await store.append(conversationId, [message], { idempotencyKey: message.id });
        latest = next;
        // Counted in `streamSequence + 1` above: the record's own event.
        for (const stored of messages)
          report({ type: 'runtime', event: 'message_persisted', conversationId, message: stored });
      }
    } catch (thrown) {
      const failure = CairnError.is(thrown)
        ? thrown
        : new CairnError('STORE_UNAVAILABLE', String(thrown), { cause: thrown });
      logger?.error({ runId, code: failure.code }, 'could not store the run state after the turn');
      error ??= failure;
    }

    const message = result.errorMessage ?? result.lastAssistant;
    return {
      runId,
      conversationId,
      state: latest,
      success: error === undefined,
      ...definedFields({ message, error, waiting: result.waiting }),
      text: result.loop?.text ?? '',
      usage: result.loop?.usage ?? { turns: [], total: NO_USAGE },
      turns: result.loop?.turns ?? 0,
      // No model call: the turn ended waiting for a decision, found nothing owed, or failed first.
      finishReason:
        result.loop?.finishReason ??
        (error !== undefined ? 'error' : result.waiting !== undefined ? 'tool_calls' : 'stop'),
    };
  }

  return {
    async start(params) {
      const input = checkText('input', params.input);
      const { packageName, workflow } = registry.resolve(params.workflow);
      const runId = params.runId ?? generateRunId();
      const conversationId = runConversationId(runId);
      return queue.run(conversationId, () =>
        leased(runId, params.signal, async (signal) => {
          const existing = await store.load(conversationId, { limit: 1 });
          if (existing.length > 0) {
            throw new CairnError('INVALID_ARGUMENT', `Run ${runId} already exists: continue it instead`, {
              details: { runId },
            });
          }
          const startedAt = env.now().toISOString();
          const record: RunWorkflowRecord = { packageName, workflow };
          const state: RunState = {
            runId,
            packageName,
            workflowId: workflow.id,
            workflowName: workflow.name,
            status: 'active',
            currentNodeId: workflow.entry,
            stepsCompleted: [],
            ...definedFields({ input }),
            startedAt,
            updatedAt: startedAt,
            lastFailFingerprint: null,
            consecutiveFailCount: 0,
            streamSequence: 0,
          };
          const session = {
            mode: 'run' as const,
            runId,
            ...(params.agent?.id === undefined ? {} : { agentId: params.agent.id }),
          };
          const first = storedUserMessage(env.generateId(), startedAt, input ?? RUN_START_TEXT, session);
          // The workflow, the first state and the input in one append, on an empty conversation only: a
          // run exists whole or not at all, and a second start of the same run (another process) loses
          // with STORE_CONFLICT instead of writing a second beginning.
          const { messages } = await store.append(
            conversationId,
            [
              runWorkflowMessage(runId, record, { id: env.generateId(), createdAt: startedAt }),
              runStateMessage(state, { id: env.generateId(), createdAt: startedAt }),
              first,
            ],
            { expectedSeq: 0 },
          );
          logger?.info({ runId, packageName, workflowId: workflow.id }, 'run started');
          const persisted = messages.map(
            (message): RunEvent => ({ type: 'runtime', event: 'message_persisted', conversationId, message }),
          );
          return turn(runId, record, state, [], withSignal(params, signal), persisted);
        }),
      );
    },

    async continue(params) {
      assertRunId(params.runId);
      const userInput = checkText('userInput', params.userInput);
      const { runId } = params;
      const conversationId = runConversationId(runId);
      return queue.run(conversationId, () =>
        leased(runId, params.signal, async (signal) => {
          const state = await loadRunState(store, runId, readOptions);
          const record = await workflowOf(runId);
          const session = {
            mode: 'run' as const,
            runId,
            ...(params.agent?.id === undefined ? {} : { agentId: params.agent.id }),
          };
          const text =
            userInput ?? ((await owesAnswer(store, conversationId)) ? undefined : RUN_CONTINUE_TEXT);
          const inputs =
            text === undefined
              ? []
              : [storedUserMessage(env.generateId(), env.now().toISOString(), text, session)];
          return turn(runId, record, state, inputs, withSignal(params, signal));
        }),
      );
    },

    recover(params = {}) {
      return recoverRuns(
        {
          store,
          list: (listOptions) => this.list(listOptions),
          takeOver: (runId, recoverParams) => {
            const conversationId = runConversationId(runId);
            return queue.run(conversationId, () =>
              leased(runId, recoverParams.signal, async (signal) => {
                // Looked at again under the lease: the turn that owed it may have ended meanwhile.
                if (!(await owesAnswer(store, conversationId))) return undefined;
                const state = await loadRunState(store, runId, readOptions);
                const record = await workflowOf(runId);
                logger?.info({ runId }, 'run taken over');
                return turn(runId, record, state, [], withSignal({ runId, ...recoverParams }, signal));
              }),
            );
          },
        },
        params,
      );
    },

    async get(runId) {
      assertRunId(runId);
      return loadRunState(store, runId, readOptions);
    },

    async list(listOptions = {}) {
      const page = await store.listConversations(listOptions);
      const runs: RunState[] = [];
      for (const conversation of page.conversations) {
        const runId = runIdOfConversation(conversation.id);
        if (runId === undefined) continue;
        try {
          runs.push(await loadRunState(store, runId, readOptions));
        } catch (error) {
          // A conversation named like a run but without a state (a chat called "run-…"): not a run.
          if (!CairnError.is(error, 'STORE_NOT_FOUND')) throw error;
        }
      }
      return {
        runs,
        ...definedFields({ nextCursor: page.nextCursor }),
      } satisfies RunPage;
    },
  };
}
