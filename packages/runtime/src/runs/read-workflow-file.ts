import { readFile } from 'node:fs/promises';
import { CairnError, definedFields, type ValidationIssue } from '@cairn/core';
import { parse as parseYaml } from 'yaml';
import {
  parseWorkflowDefinition,
  parseWorkflowPackage,
  type WorkflowPackage,
} from './workflow-definition.js';

/** Where the workflow file format is documented ("Workflow files" in this package's README). */
export const WORKFLOW_FORMAT_URL =
  'https://github.com/cairn-dev/cairn/tree/main/packages/runtime#workflow-files';

// Issues named in the message; the rest are counted (all of them are in `details.issues`).
const ISSUES_SHOWN = 3;

/** A file read but not a workflow: the fix points at the documented format (`details.docs`). */
const notAWorkflow = (path: string, problem: string, fix?: string, issues?: ValidationIssue[]) =>
  new CairnError('INVALID_ARGUMENT', `${path}${problem}`, {
    details: {
      path,
      fix: `${fix === undefined ? '' : `${fix}; `}see the workflow format at ${WORKFLOW_FORMAT_URL}`,
      docs: WORKFLOW_FORMAT_URL,
      ...definedFields({ issues }),
    },
  });

// `edges[0].to: no node has the id "x"`; a top-level issue needs no path (the file is the top).
const issueText = (issue: ValidationIssue) =>
  issue.path === '(root)' ? issue.message : `${issue.path}: ${issue.message}`;

function describeIssues(issues: ValidationIssue[]): string {
  const more = issues.length > ISSUES_SHOWN ? ` (and ${issues.length - ISSUES_SHOWN} more)` : '';
  return `${issues.slice(0, ISSUES_SHOWN).map(issueText).join('; ')}${more}`;
}

// What the file holds instead of a mapping, in the words of whoever wrote it.
function notAMapping(value: unknown): string {
  if (value === null || value === undefined) return ' is empty';
  return ` holds ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not a workflow`;
}

/**
 * Reads a workflow file (YAML or JSON; YAML is a superset of JSON): a package
 * `{ name, workflows: [...] }`, or one workflow definition, wrapped in a package named `name`.
 * Every failure is `INVALID_ARGUMENT` naming the file (`details.path`) with a fix; when the file
 * was read but is not a workflow, the message names the bad fields and the fix points at the
 * documented format (`details.docs`, `WORKFLOW_FORMAT_URL`). A file that cannot be read has the
 * reason in `details.errno` (`ENOENT`).
 */
export async function readWorkflowFile(path: string, options: { name: string }): Promise<WorkflowPackage> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CairnError('INVALID_ARGUMENT', `cannot read ${path} (${errno})`, {
      details: { path, errno, fix: 'check the path' },
    });
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    // The parser's first line says what and where ("… at line 2, column 1:"); a code excerpt follows.
    const what = ((error as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    throw notAWorkflow(path, ` is not valid YAML or JSON: ${what}`, 'fix the syntax there');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw notAWorkflow(
      path,
      notAMapping(value),
      'write a workflow (id, name, entry, nodes, edges) or a package of them (name, workflows)',
    );
  }
  try {
    return 'workflows' in value
      ? parseWorkflowPackage(value)
      : { name: options.name, workflows: [parseWorkflowDefinition(value)] };
  } catch (error) {
    const issues = CairnError.is(error)
      ? (error.details?.issues as ValidationIssue[] | undefined)
      : undefined;
    if (issues === undefined) throw error;
    throw notAWorkflow(path, `: ${describeIssues(issues)}`, undefined, issues);
  }
}
