import {
  isToolAllowed,
  type LayeredToolPolicy,
  mergeToolPolicies,
  type Tool,
  type ToolPolicy,
} from '@cairn/core';
import { oneLine } from './one-line.js';

/** A tool as the prompt lists it; a `Tool` from `@cairn/core` fits. */
export type ToolDescription = Pick<Tool, 'name' | 'description' | 'category'>;

/** One policy, or the layered form. */
export type ToolPolicyInput = ToolPolicy | LayeredToolPolicy;

const isLayered = (input: ToolPolicyInput): input is LayeredToolPolicy =>
  'system' in input || 'agent' in input;

/** The effective policy: a layered input is merged, a plain policy used as is. */
function resolveToolPolicy(input: ToolPolicyInput | undefined): ToolPolicy | undefined {
  if (input === undefined) return undefined;
  return isLayered(input) ? mergeToolPolicies(input) : input;
}

// Code-unit order, not localeCompare: the prompt must not depend on the machine's locale.
const byName = (a: ToolDescription, b: ToolDescription) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The tools part of the system prompt: one line per allowed tool (or a line saying there are
 * none), sorted by name so that the
 * same tools give the same text (and a provider's prompt cache hits) whatever order they come in.
 */
export function describeTools(
  tools: readonly ToolDescription[],
  policy: ToolPolicyInput | undefined,
): string {
  const effective = resolveToolPolicy(policy);
  const allowed = tools.filter((tool) => isToolAllowed(effective, tool)).sort(byName);
  if (allowed.length === 0) return 'No tools are available.';
  const lines = allowed.map((tool) => {
    const description = oneLine(tool.description);
    return description === '' ? `- ${tool.name}` : `- ${tool.name}: ${description}`;
  });
  return ['Tools you can use:', ...lines].join('\n');
}
