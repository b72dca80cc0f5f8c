import { extname } from 'node:path';
import { CairnError } from '@cairn/core';
import { readWorkflowFile as readWorkflowPackage, type WorkflowPackage } from '@cairn/runtime';
import { shellArgument } from '../agent/shell-argument.js';
import { cliFailure } from '../cli-error.js';

/** A workflow file read: the package to give the runtime, and the `package/workflow` to start. */
export interface WorkflowFile {
  pkg: WorkflowPackage;
  ref: string;
}

// What `cairn workflow init` can do about a file the runtime refused: write one there if it is
// missing (YAML only, so not over a .json name), else a working sample to compare with.
function sampleHint(details: Record<string, unknown>, path: string): string | undefined {
  const missing = details.errno === 'ENOENT';
  if (missing && extname(path).toLowerCase() !== '.json')
    return `\`cairn workflow init ${shellArgument(path)}\` writes a sample there`;
  if (missing || details.docs !== undefined)
    return '`cairn workflow init sample.yaml` writes a working sample';
  return undefined;
}

// The runtime's fix (check the path, or the documented format) with the CLI's own way out after it.
function withSampleHint(error: unknown, path: string): unknown {
  if (!CairnError.is(error) || typeof error.details?.fix !== 'string') return error;
  const hint = sampleHint(error.details, path);
  if (hint === undefined) return error;
  return new CairnError(error.code, error.message, {
    cause: error.cause,
    details: { ...error.details, fix: `${error.details.fix}; ${hint}` },
  });
}

/**
 * Reads a workflow file (YAML or JSON): either one workflow definition, or a package
 * `{ name, workflows: [...] }` from which `workflowId` picks one (needed when it has several).
 */
export async function readWorkflowFile(path: string, workflowId?: string): Promise<WorkflowFile> {
  const pkg = await readWorkflowPackage(path, { name: 'file' }).catch((error: unknown) => {
    throw withSampleHint(error, path);
  });
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
