import type { ModelRequest } from '@cairn/core';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import type { RunState, WorkflowDefinition, WorkflowPackage } from '../src/runs/index.js';

/** draft → review → (approved) publish, or (needs changes, the default) back to draft. */
export const ARTICLE: WorkflowDefinition = {
  id: 'article',
  name: 'Write an article',
  entry: 'draft',
  nodes: [
    { id: 'draft', name: 'Draft', instruction: 'Write a first draft of the article.' },
    { id: 'review', name: 'Review', instruction: 'Review the draft against the style guide.' },
    { id: 'publish', name: 'Publish', instruction: 'Publish the approved article.' },
  ],
  edges: [
    { from: 'draft', to: 'review' },
    { from: 'review', to: 'publish', label: 'approved' },
    { from: 'review', to: 'draft', label: 'needs changes', default: true },
  ],
};

export const PUBLISHING: WorkflowPackage = { name: 'publishing', workflows: [ARTICLE] };

/** One step and done. */
export const ONE_STEP: WorkflowDefinition = {
  id: 'greet',
  name: 'Greet',
  entry: 'hello',
  nodes: [{ id: 'hello', name: 'Say hello', instruction: 'Greet the user.' }],
  edges: [],
};

export const SUMMARY_TEXT = 'The run so far: a long discussion of lorem ipsum.';

const isSummaryRequest = (request: ModelRequest) => {
  const first = request.messages[0];
  return first?.role === 'system' && String(first.content).startsWith('You summarise');
};

/**
 * A ScriptedModel playing `replies` in order for the run's turns, and answering the compression
 * summariser's requests with `SUMMARY_TEXT` (they take no reply from the script).
 */
export function runModel(replies: ScriptTurn[]) {
  let next = 0;
  const model = new ScriptedModel({
    turns: (request) => {
      if (isSummaryRequest(request)) return { text: SUMMARY_TEXT };
      const reply = replies[next++];
      if (reply === undefined) throw new Error(`the script has no reply ${next}`);
      return reply;
    },
  });
  return {
    model,
    /** The requests of the run's turns (the summariser's left out). */
    turnRequests: () => model.requests.filter((request) => !isSummaryRequest(request)),
  };
}

/** The system prompt of a request. */
export const systemPrompt = (request: ModelRequest | undefined) => {
  const first = request?.messages[0];
  return first?.role === 'system' ? String(first.content) : '';
};

export const STATE_TIME = '2025-01-01T00:00:00.000Z';

/** A state of an `ARTICLE` run at step `currentNodeId`. */
export const articleState = (currentNodeId: string, extra: Partial<RunState> = {}): RunState => ({
  runId: 'r1',
  packageName: 'publishing',
  workflowId: 'article',
  workflowName: 'Write an article',
  status: 'active',
  currentNodeId,
  stepsCompleted: [],
  startedAt: STATE_TIME,
  updatedAt: STATE_TIME,
  lastFailFingerprint: null,
  consecutiveFailCount: 0,
  streamSequence: 0,
  ...extra,
});
