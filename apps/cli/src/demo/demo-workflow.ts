import type { ScriptTurn } from '@cairn/testing';
import type { ChatMessage } from './read-chat-request.js';
import { REAL_MODEL_HINT } from './real-model-hint.js';
import { toolResultsAfter } from './tool-outcomes.js';

/** The runtime's tool for moving a run on (`@cairn/runtime`'s COMPLETE_STEP_TOOL_NAME). */
export const COMPLETE_STEP = 'complete_step';

// Past this many steps in one turn the demo stops: a workflow whose default edges loop never ends.
const MAX_STEPS_PER_TURN = 12;

// What the runtime's complete_step result says once the last step is done.
const WORKFLOW_DONE = /no step is active any more/;

/**
 * A workflow run's turn with the demo model: it completes each step without doing its work,
 * taking the default edges, until the run completes — scripted, and saying so — so a run can be
 * seen moving (stored states, `cairn runs show`) without an API key.
 */
export function workflowTurn(messages: readonly ChatMessage[], latestUser: number): ScriptTurn {
  const results = toolResultsAfter(messages, latestUser);
  const last = results.at(-1);
  if (last !== undefined && WORKFLOW_DONE.test(last)) {
    return {
      text: `The workflow is complete: I went through ${results.length} steps, each on its default way. This was Cairn's scripted offline demo: it completes steps without doing their work. ${REAL_MODEL_HINT}`,
    };
  }
  if (last !== undefined && !last.startsWith('Step ')) {
    return { text: `The workflow could not go on: ${last}` };
  }
  if (results.length >= MAX_STEPS_PER_TURN) {
    return {
      text: `I stopped after ${results.length} steps: this workflow's default ways go round in a loop. ${REAL_MODEL_HINT}`,
    };
  }
  return {
    text: `(Offline demo: completing this step without doing its work.)`,
    toolCalls: [
      {
        name: COMPLETE_STEP,
        arguments: { summary: 'Scripted offline demo: marked done without doing the work.' },
      },
    ],
  };
}
