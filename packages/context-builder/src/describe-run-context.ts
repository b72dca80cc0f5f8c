import { isGiven, oneLine } from './one-line.js';
import type { RunContext, RunEdge, RunStepRef } from './run-context.js';

const stepLabel = (id: string, name: string | undefined) =>
  isGiven(name) ? `${oneLine(id)} (${oneLine(name)})` : oneLine(id);

const completedStep = (step: string | RunStepRef) =>
  typeof step === 'string' ? oneLine(step) : stepLabel(step.id, step.name);

function edgeLine(edge: RunEdge): string {
  const label = isGiven(edge.label) ? `${oneLine(edge.label)} ` : '';
  return `- ${label}→ ${oneLine(edge.targetNodeId)}${edge.isDefault ? ' (default)' : ''}`;
}

/**
 * The run part of the system prompt. A completed run says so and lists the steps done; it carries
 * no active-step information at all (no current step, instruction or edges), so the model cannot
 * mistake the last step for one still to be worked on.
 */
export function describeRunContext(run: RunContext): string {
  const completed = run.status === 'completed';
  const lines = [
    'Workflow run:',
    `- Package: ${oneLine(run.packageName)}`,
    `- Workflow: ${oneLine(run.workflowName)}`,
    `- Status: ${completed ? 'completed' : 'in progress'}`,
  ];
  if (!completed && run.currentStepId !== undefined) {
    lines.push(`- Current step: ${stepLabel(run.currentStepId, run.currentStepName)}`);
  }
  const done = run.stepsCompleted ?? [];
  lines.push(`- Steps completed: ${done.length === 0 ? 'none' : done.map(completedStep).join(', ')}`);
  if (completed) return lines.join('\n');

  if (isGiven(run.stepInstruction))
    lines.push('', 'Instruction for the current step:', run.stepInstruction.trim());
  if (run.outgoingEdges !== undefined) {
    lines.push('', 'Where the workflow can go from this step:');
    if (run.outgoingEdges.length === 0) lines.push('- nowhere: this is the last step');
    else lines.push(...run.outgoingEdges.map(edgeLine));
  }
  return lines.join('\n');
}
