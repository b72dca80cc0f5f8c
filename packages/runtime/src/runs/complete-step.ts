import type { RunState } from './run-state.js';
import {
  outgoingEdges,
  type WorkflowDefinition,
  type WorkflowEdge,
  type WorkflowNode,
  workflowNode,
} from './workflow-definition.js';

/** The arguments of `complete_step`. */
export interface CompleteStepInput {
  /** The label of the edge to take (or the id of the step it leads to). */
  edge?: string | undefined;
  /** The id of the step being completed: the call fails unless it is the current one. */
  step?: string | undefined;
  summary?: string | undefined;
}

/** What completing the current step does: the next state, or why it cannot be done. */
export type StepTransition =
  | {
      ok: true;
      /** The next state (`updatedAt` set; the caller sets the fail state and stream sequence). */
      state: RunState;
      from: string;
      /** The new current step; the step just completed when the workflow completed. */
      to: string;
      /** The edge taken; undefined when the last step was completed. */
      edge?: WorkflowEdge;
    }
  | { ok: false; code: 'TOOL_INVALID_INPUT' | 'TOOL_FAILED'; message: string };

const quoted = (value: string) => JSON.stringify(value);

/** A step as the model reads it: `"review" (Review)`. */
export function stepLabel(node: WorkflowNode | undefined, id: string): string {
  return node === undefined ? quoted(id) : `${quoted(node.id)} (${node.name})`;
}

/** What the model passes as `edge` to take this edge: its label, or the step it leads to. */
const edgeValue = (edge: WorkflowEdge) => edge.label ?? edge.to;

/** One line per edge out of `nodeId`: what to pass as `edge`, where it leads, whether it is the default. */
export function edgeChoices(workflow: WorkflowDefinition, nodeId: string): string[] {
  return outgoingEdges(workflow, nodeId).map((edge) => {
    const target = stepLabel(workflowNode(workflow, edge.to), edge.to);
    const how = edge.label === undefined ? ' (no label: pass the step id)' : '';
    return `- ${quoted(edgeValue(edge))}${how} → ${target}${edge.default === true ? ', the default' : ''}`;
  });
}

// Labels first (as written, then ignoring case and spaces), then the id of the step an edge leads to.
function findEdge(edges: WorkflowEdge[], wanted: string): WorkflowEdge | undefined {
  const key = wanted.trim().toLowerCase();
  return (
    edges.find((edge) => edge.label === wanted) ??
    edges.find((edge) => edge.label !== undefined && edge.label.trim().toLowerCase() === key) ??
    edges.find((edge) => edge.to === wanted.trim())
  );
}

/**
 * Completes the current step: the step joins `stepsCompleted` and the run follows the edge named
 * by `input.edge` (its label, or the id of the step it leads to), else the default edge, else the
 * only one. A step without outgoing edges is the last: completing it completes the workflow.
 * An unknown edge, a choice the step needs but did not get, or `input.step` naming another step
 * is `TOOL_INVALID_INPUT` with the edges the model can use; a completed run is `TOOL_FAILED`.
 */
export function completeStep(
  workflow: WorkflowDefinition,
  state: RunState,
  input: CompleteStepInput,
  at: string,
): StepTransition {
  if (state.status === 'completed') {
    return {
      ok: false,
      code: 'TOOL_FAILED',
      message: `The workflow ${quoted(state.workflowName)} is already completed: no step is active, so there is nothing to complete. Answer the user without calling complete_step.`,
    };
  }
  const node = workflowNode(workflow, state.currentNodeId);
  if (node === undefined) {
    return {
      ok: false,
      code: 'TOOL_FAILED',
      message: `The run is at step ${quoted(state.currentNodeId)}, which the workflow does not have; it cannot go on.`,
    };
  }
  const current = stepLabel(node, node.id);
  if (input.step !== undefined && input.step.trim() !== node.id) {
    return {
      ok: false,
      code: 'TOOL_INVALID_INPUT',
      message: `The current step is ${current}, not ${quoted(input.step)}: complete the current step (or leave out \`step\`).`,
    };
  }
  const edges = outgoingEdges(workflow, node.id);
  const done = { ...state, stepsCompleted: [...state.stepsCompleted, node.id], updatedAt: at };

  if (edges.length === 0) {
    if (input.edge !== undefined && input.edge.trim() !== '') {
      return {
        ok: false,
        code: 'TOOL_INVALID_INPUT',
        message: `Step ${current} is the last step: no edge leads out of it, so there is no edge ${quoted(input.edge)}. Call complete_step without \`edge\` to finish the workflow.`,
      };
    }
    return { ok: true, state: { ...done, status: 'completed' }, from: node.id, to: node.id };
  }

  const wanted = input.edge?.trim() === '' ? undefined : input.edge;
  const edge =
    wanted !== undefined
      ? findEdge(edges, wanted)
      : (edges.find((candidate) => candidate.default === true) ??
        (edges.length === 1 ? edges[0] : undefined));
  if (edge === undefined) {
    const choices = edgeChoices(workflow, node.id).join('\n');
    const problem =
      wanted === undefined
        ? `Step ${current} has several ways on and no default: say which one with \`edge\`.`
        : `Step ${current} has no edge ${quoted(wanted)}.`;
    return {
      ok: false,
      code: 'TOOL_INVALID_INPUT',
      message: `${problem} The edges you can use:\n${choices}`,
    };
  }
  return { ok: true, state: { ...done, currentNodeId: edge.to }, from: node.id, to: edge.to, edge };
}

/**
 * What `complete_step` answers after a transition. The workflow block of the system prompt is
 * written once per turn, so within the turn this result is how the model learns where the run
 * is now: the new step, its instruction and its edges — or that the workflow is completed.
 */
export function transitionText(
  workflow: WorkflowDefinition,
  transition: Extract<StepTransition, { ok: true }>,
): string {
  const from = stepLabel(workflowNode(workflow, transition.from), transition.from);
  if (transition.state.status === 'completed') {
    return [
      `Step ${from} is completed, and with it the workflow ${quoted(workflow.name)}: no step is active any more.`,
      'Tell the user what was done. Do not start or continue workflow steps, and do not call complete_step again.',
    ].join('\n');
  }
  const to = workflowNode(workflow, transition.to);
  const via = transition.edge?.label === undefined ? '' : ` along ${quoted(transition.edge.label)}`;
  const lines = [
    `Step ${from} is completed; the workflow moved${via} to step ${stepLabel(to, transition.to)}.`,
    'This supersedes the workflow block of the system prompt, written before this call: the current step is now the one below.',
    '',
    'Instruction for the current step:',
    to?.instruction.trim() ?? '(none)',
    '',
  ];
  const choices = edgeChoices(workflow, transition.to);
  if (choices.length === 0) {
    lines.push(
      'This is the last step: when it is done, call complete_step without `edge` to finish the workflow.',
    );
  } else {
    lines.push('Where the workflow can go from this step (pass one as `edge` to complete_step):', ...choices);
    lines.push('', 'Work on this step now, and call complete_step when it is done.');
  }
  return lines.join('\n');
}
