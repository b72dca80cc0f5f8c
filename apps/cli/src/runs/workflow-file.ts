import { readFile } from 'node:fs/promises';
import { CairnError } from '@cairn/core';
import { parseWorkflowDefinition, parseWorkflowPackage, type WorkflowPackage } from '@cairn/runtime';
import { parse as parseYaml } from 'yaml';
import { cliFailure } from '../cli-error.js';

/** A workflow file read: the package to give the runtime, and the `package/workflow` to start. */
export interface WorkflowFile {
  pkg: WorkflowPackage;
  ref: string;
}

/**
 * Reads a workflow file (YAML or JSON; YAML is a superset): either one workflow definition, or a
 * package `{ name, workflows: [...] }` from which `workflowId` picks one (needed when it has several).
 */
export async function readWorkflowFile(path: string, workflowId?: string): Promise<WorkflowFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw cliFailure(
      'INVALID_ARGUMENT',
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`,
      'check the path',
    );
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw cliFailure(
      'INVALID_ARGUMENT',
      `${path} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`,
      'fix the syntax',
    );
  }
  try {
    const isPackage = typeof value === 'object' && value !== null && 'workflows' in value;
    const pkg = isPackage
      ? parseWorkflowPackage(value)
      : { name: 'file', workflows: [parseWorkflowDefinition(value)] };
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
  } catch (error) {
    if (CairnError.is(error) && error.details?.fix === undefined) {
      throw cliFailure(
        error.code,
        `${path}: ${error.message}`,
        'see `cairn workflow run --help` for the format',
      );
    }
    throw error;
  }
}
