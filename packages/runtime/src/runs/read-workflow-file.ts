import { readFile } from 'node:fs/promises';
import { CairnError } from '@cairn/core';
import { parse as parseYaml } from 'yaml';
import {
  parseWorkflowDefinition,
  parseWorkflowPackage,
  type WorkflowPackage,
} from './workflow-definition.js';

const invalid = (message: string, fix: string) =>
  new CairnError('INVALID_ARGUMENT', message, { details: { fix } });

/**
 * Reads a workflow file (YAML or JSON; YAML is a superset of JSON): a package
 * `{ name, workflows: [...] }`, or one workflow definition, wrapped in a package named `name`.
 * Every failure is `INVALID_ARGUMENT` naming the file, with a fix.
 */
export async function readWorkflowFile(path: string, options: { name: string }): Promise<WorkflowPackage> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw invalid(
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`,
      'check the path',
    );
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw invalid(
      `${path} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`,
      'fix the syntax',
    );
  }
  try {
    const isPackage = typeof value === 'object' && value !== null && 'workflows' in value;
    return isPackage
      ? parseWorkflowPackage(value)
      : { name: options.name, workflows: [parseWorkflowDefinition(value)] };
  } catch (error) {
    if (!CairnError.is(error)) throw error;
    throw new CairnError(error.code, `${path}: ${error.message}`, {
      details: { ...error.details, fix: 'see the workflow format in the @cairn/runtime README' },
    });
  }
}
