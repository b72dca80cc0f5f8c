import { z } from 'zod';
import { definedFields } from '../objects/defined-fields.js';

/** Tool names and tool categories (`fs`, `shell`, `web`, …) a policy rule applies to. */
export const ToolSelectorSchema = z.object({
  categories: z.array(z.string()).optional(),
  tools: z.array(z.string()).optional(),
});

/**
 * Which tools an agent may use.
 * - `allow` narrows: each list given is a filter a tool must pass (its category is in
 *   `allow.categories` **and** its name is in `allow.tools`). An absent list filters nothing.
 * - `deny` removes: a tool whose category or name is listed is refused, whatever `allow` says.
 * Filters compose exactly, so merging policies (system, then agent) only ever narrows.
 */
export const ToolPolicySchema = z.object({
  allow: ToolSelectorSchema.optional(),
  deny: ToolSelectorSchema.optional(),
});

export type ToolSelector = z.infer<typeof ToolSelectorSchema>;
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

/** What a policy is checked against. */
export interface ToolIdentity {
  name: string;
  category: string;
}

function intersect(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (a === undefined) return b && [...b];
  if (b === undefined) return [...a];
  const inB = new Set(b);
  return a.filter((item) => inB.has(item));
}

function union(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (a === undefined && b === undefined) return undefined;
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

function selector(categories: string[] | undefined, tools: string[] | undefined): ToolSelector | undefined {
  if (categories === undefined && tools === undefined) return undefined;
  return {
    ...definedFields({ categories, tools }),
  };
}

/** A system policy and an agent's own, merged by `mergeToolPolicies` so the agent can only narrow. */
export interface LayeredToolPolicy {
  system?: ToolPolicy;
  agent?: ToolPolicy;
}

/**
 * The effective policy of an agent under the system policy: allow filters intersect, deny lists
 * add up. An agent may narrow what the system allows but never widen it, and cannot lift a deny.
 */
export function mergeToolPolicies(layers: LayeredToolPolicy): ToolPolicy {
  const { system = {}, agent = {} } = layers;
  const allow = selector(
    intersect(system.allow?.categories, agent.allow?.categories),
    intersect(system.allow?.tools, agent.allow?.tools),
  );
  const deny = selector(
    union(system.deny?.categories, agent.deny?.categories),
    union(system.deny?.tools, agent.deny?.tools),
  );
  return { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
}

/** Whether `policy` lets an agent use `tool`; no policy allows everything. */
export function isToolAllowed(policy: ToolPolicy | undefined, tool: ToolIdentity): boolean {
  if (policy === undefined) return true;
  const { allow, deny } = policy;
  if (deny?.categories?.includes(tool.category) || deny?.tools?.includes(tool.name)) return false;
  if (allow?.categories && !allow.categories.includes(tool.category)) return false;
  if (allow?.tools && !allow.tools.includes(tool.name)) return false;
  return true;
}
