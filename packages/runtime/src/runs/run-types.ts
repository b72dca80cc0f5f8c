import type { AgentOutput, ModelAdapter } from '@cairn/core';
import type { ChatResult, RuntimeAgent, RuntimeEvent } from '../runtime-types.js';
import type { RunState } from './run-state.js';
import type { WorkflowRef } from './workflow-registry.js';

/** A run moved on: a step was completed (and the workflow, when `status` is `completed`). */
export interface RunStepChangedEvent {
  type: 'runtime';
  event: 'run_step_changed';
  runId: string;
  conversationId: string;
  /** The step completed. */
  from: string;
  /** The new current step; `from` again when the workflow completed on its last step. */
  to: string;
  status: RunState['status'];
  /** The label of the edge taken, when it has one. */
  edge?: string;
  /** What the model said it did (`complete_step({ summary })`). */
  summary?: string;
}

/** What a run reports: the turn's stream and runtime events, and its own. */
export type RunEvent = AgentOutput | RuntimeEvent | RunStepChangedEvent;

/**
 * Receives a run's events with their number in the run: 1, 2, … over all its turns, carried over
 * restarts (`RunState.streamSequence`), so a client can tell what it already has.
 */
export type RunEventListener = (event: RunEvent, sequence: number) => void;

interface RunTurnParams {
  /** The agent working on the run: its persona, its id on the messages, its tool policy. */
  agent?: RuntimeAgent;
  /** Facts for this turn: shown to the model, not stored. */
  dataContext?: string | Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /** Another model for this turn. */
  model?: ModelAdapter;
}

export interface RunStartParams extends RunTurnParams {
  workflow: WorkflowRef;
  /** What the run is asked to do; stored as its first user message (a fixed kick-off text when absent). */
  input?: string;
  /** The run's id (a safe id, at most 124 characters); generated when absent. */
  runId?: string;
}

export interface RunContinueParams extends RunTurnParams {
  runId: string;
  /**
   * The user's next message. When absent and the log does not already end with something to
   * answer (a user message, a call still without a result), a "Continue." message is stored.
   */
  userInput?: string;
}

/** `recover`: how the turns it runs are run. */
export interface RunRecoverParams {
  /** The agent the taken-over turns run as. */
  agent?: RuntimeAgent;
  /** Stops the sweep, and the turn it runs. */
  signal?: AbortSignal;
  /** Each taken-over turn's events (`message_persisted` names its conversation). */
  onEvent?: RunEventListener;
  model?: ModelAdapter;
}

/** What `start` and `continue` return: a chat turn's result, and where the run stands after it. */
export interface RunResult extends ChatResult {
  runId: string;
  /** The state after the turn, read from the store. */
  state: RunState;
}

/** One page of runs, most recently updated first. */
export interface RunPage {
  runs: RunState[];
  /** Pass as `cursor` for the next page; absent on the last. */
  nextCursor?: string;
}

/** Workflow runs: every message and every state change persisted in the run's conversation. */
export interface RunApi {
  /** Starts a run at the workflow's entry step and runs its first turn. */
  start(params: RunStartParams): Promise<RunResult>;
  /** Runs the next turn of a run, from the state in the store; a completed run answers follow-up questions. */
  continue(params: RunContinueParams): Promise<RunResult>;
  /**
   * Takes over runs a process left in the middle of a turn (it died): each run whose log owes an
   * answer and whose lease no live process holds is continued from its last stored step, as
   * `continue` does with no input (the ledger settles its calls: an interrupted non-idempotent call
   * is not run again). A run a live process holds is left alone. Call it now and then in every
   * process sharing the store (a server does, in each worker): the lease gives each run to one.
   * Nothing is recovered on a store without leases. Returns the turns it ran.
   */
  recover(params?: RunRecoverParams): Promise<RunResult[]>;
  /** The current state (`STORE_NOT_FOUND` when there is no such run). */
  get(runId: string): Promise<RunState>;
  /** Runs, from the store's conversation list (a page may hold fewer than `limit` runs: other conversations are skipped). */
  list(options?: { cursor?: string; limit?: number }): Promise<RunPage>;
}
