import { CairnError } from '@cairn/core';
import {
  parseWorkflowDefinition,
  parseWorkflowPackage,
  type WorkflowDefinition,
  type WorkflowPackage,
} from './workflow-definition.js';

/** The package name of a run started from a definition given inline (not from a package). */
export const INLINE_PACKAGE_NAME = 'inline';

/**
 * Which workflow to run: `"<package>/<workflow id>"` or a workflow id alone (when only one package
 * has it), the two names, or a definition given inline.
 */
export type WorkflowRef = string | { packageName: string; workflowId: string } | WorkflowDefinition;

/** A workflow found: the package it belongs to, and its definition. */
export interface ResolvedWorkflow {
  packageName: string;
  workflow: WorkflowDefinition;
}

/** The workflow packages a runtime knows, checked once when created. */
export interface WorkflowRegistry {
  readonly packages: readonly WorkflowPackage[];
  /** The workflow `ref` names; `INVALID_ARGUMENT` when there is none (or a name is ambiguous). */
  resolve(ref: WorkflowRef): ResolvedWorkflow;
}

const quoted = (value: string) => JSON.stringify(value);

/**
 * Checks every package (`INVALID_ARGUMENT` naming the package and the field) and that no two share
 * a name, then resolves references against them.
 */
export function createWorkflowRegistry(packages: readonly unknown[] = []): WorkflowRegistry {
  if (!Array.isArray(packages))
    throw new CairnError('INVALID_ARGUMENT', 'workflows must be an array of workflow packages');
  const checked: WorkflowPackage[] = [];
  const names = new Set<string>();
  packages.forEach((value, index) => {
    let pkg: WorkflowPackage;
    try {
      pkg = parseWorkflowPackage(value);
    } catch (error) {
      if (!CairnError.is(error)) throw error;
      throw new CairnError('INVALID_ARGUMENT', `workflows[${index}]: ${error.message}`, {
        ...(error.details === undefined ? {} : { details: { ...error.details, packageIndex: index } }),
      });
    }
    if (names.has(pkg.name)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `workflows[${index}].name: two packages are named ${quoted(pkg.name)}`,
      );
    }
    names.add(pkg.name);
    checked.push(pkg);
  });

  function byName(packageName: string, workflowId: string): ResolvedWorkflow {
    const pkg = checked.find((candidate) => candidate.name === packageName);
    if (pkg === undefined)
      throw new CairnError('INVALID_ARGUMENT', `Unknown workflow package ${quoted(packageName)}`);
    const workflow = pkg.workflows.find((candidate) => candidate.id === workflowId);
    if (workflow === undefined) {
      const known = pkg.workflows.map((candidate) => quoted(candidate.id)).join(', ') || 'none';
      throw new CairnError(
        'INVALID_ARGUMENT',
        `Package ${quoted(packageName)} has no workflow ${quoted(workflowId)} (it has: ${known})`,
      );
    }
    return { packageName, workflow };
  }

  function byText(ref: string): ResolvedWorkflow {
    const full: ResolvedWorkflow[] = [];
    const bare: ResolvedWorkflow[] = [];
    for (const pkg of checked) {
      for (const workflow of pkg.workflows) {
        if (ref === `${pkg.name}/${workflow.id}`) full.push({ packageName: pkg.name, workflow });
        else if (ref === workflow.id) bare.push({ packageName: pkg.name, workflow });
      }
    }
    const found = full.length > 0 ? full : bare;
    if (found.length === 1) return found[0] as ResolvedWorkflow;
    if (found.length === 0) throw new CairnError('INVALID_ARGUMENT', `Unknown workflow ${quoted(ref)}`);
    const where = found
      .map((candidate) => quoted(`${candidate.packageName}/${candidate.workflow.id}`))
      .join(', ');
    throw new CairnError('INVALID_ARGUMENT', `Workflow ${quoted(ref)} is ambiguous: name one of ${where}`);
  }

  return {
    packages: checked,
    resolve(ref) {
      if (typeof ref === 'string') return byText(ref);
      if (typeof ref !== 'object' || ref === null) {
        throw new CairnError(
          'INVALID_ARGUMENT',
          'workflow must be a name, { packageName, workflowId } or a definition',
        );
      }
      if ('nodes' in ref) return { packageName: INLINE_PACKAGE_NAME, workflow: parseWorkflowDefinition(ref) };
      if (typeof ref.packageName !== 'string' || typeof ref.workflowId !== 'string') {
        throw new CairnError(
          'INVALID_ARGUMENT',
          'workflow.packageName and workflow.workflowId must be strings',
        );
      }
      return byName(ref.packageName, ref.workflowId);
    },
  };
}
