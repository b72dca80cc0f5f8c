import type { RunContext } from '@cairn/context-builder';
import { CairnError, definedFields } from '@cairn/core';
import type { RunState } from './run-state.js';
import {
  outgoingEdges,
  type WorkflowDefinition,
  type WorkflowNode,
  workflowNode,
} from './workflow-definition.js';

/** The node the state points at; `STORE_CORRUPT` when the workflow has no such node. */
export function currentNode(workflow: WorkflowDefinition, state: RunState): WorkflowNode {
  const node = workflowNode(workflow, state.currentNodeId);
  if (node === undefined) {
    throw new CairnError(
      'STORE_CORRUPT',
      `Run ${state.runId} is at step ${JSON.stringify(state.currentNodeId)}, which workflow ${JSON.stringify(workflow.id)} does not have`,
      { details: { runId: state.runId, currentNodeId: state.currentNodeId } },
    );
  }
  return node;
}

/**
 * What the system prompt says about the run (`RunContext` of `@cairn/context-builder`). Active: the
 * current step, its instruction and the edges out of it. Completed: the post-completion profile —
 * only the names, the status and the steps done, no step, instruction or edge at all.
 */
export function runContextFor(workflow: WorkflowDefinition, state: RunState): RunContext {
  const stepsCompleted = state.stepsCompleted.map((id) => {
    const name = workflowNode(workflow, id)?.name;
    return name === undefined ? { id } : { id, name };
  });
  const base = {
    packageName: state.packageName,
    workflowName: state.workflowName,
    stepsCompleted,
  };
  if (state.status === 'completed') return { ...base, status: 'completed' };
  const node = currentNode(workflow, state);
  return {
    ...base,
    status: 'active',
    currentStepId: node.id,
    currentStepName: node.name,
    stepInstruction: node.instruction,
    outgoingEdges: outgoingEdges(workflow, node.id).map((edge) => ({
      ...definedFields({ label: edge.label }),
      targetNodeId: edge.to,
      ...(edge.default === true ? { isDefault: true } : {}),
    })),
  };
}
