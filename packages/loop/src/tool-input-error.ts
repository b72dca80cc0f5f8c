import type { StandardSchemaIssue } from '@cairn/core';

const MAX_ISSUES = 10;

/** What was wrong with a call's arguments (from any validator), written for the model to fix its next call. */
export function toolInputErrorText(toolName: string, allIssues: readonly StandardSchemaIssue[]): string {
  const issues = allIssues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `- ${path === '' ? '(arguments)' : path}: ${issue.message}`;
  });
  const more = allIssues.length - issues.length;
  if (more > 0) issues.push(`- and ${more} more`);
  return `Invalid arguments for ${toolName}:\n${issues.join('\n')}\nCall it again with arguments that match its schema.`;
}
