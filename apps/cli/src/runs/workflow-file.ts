import { readWorkflowFile as readWorkflowPackage, type WorkflowPackage } from '@cairn/runtime';
import { cliFailure } from '../cli-error.js';

/** A workflow file read: the package to give the runtime, and the `package/workflow` to start. */
export interface WorkflowFile {
  pkg: WorkflowPackage;
  ref: string;
}

/**
 * Reads a workflow file (YAML or JSON): either one workflow definition, or a package
 * `{ name, workflows: [...] }` from which `workflowId` picks one (needed when it has several).
 */
export async function readWorkflowFile(path: string, workflowId?: string): Promise<WorkflowFile> {
  const pkg = await readWorkflowPackage(path, { name: 'file' });
  const ids = pkg.workflows.map((workflow) => workflow.id);
  const chosen = workflowId ?? (ids.length === 1 ? ids[0] : undefined);
  if (chosen === undefined || !ids.includes(chosen)) {
    throw cliFailure(
      'INVALID_ARGUMENT',
      workflowId === undefined
        ? `${path} has ${ids.length} workflows`
        : `${path} has no workflow "${workflowId}"`,
      `pick one with --workflow (${ids.join(', ') || 'none defined'})`,
    );
  }
  return { pkg, ref: `${pkg.name}/${chosen}` };
}
