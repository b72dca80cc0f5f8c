import { CairnError, type ValidationIssue, validationIssues } from '@cairn/core';
import { z } from 'zod';

// Read by whoever edits a workflow file: "missing" and "unknown field" say more to them than
// zod's "expected string, received undefined" and "Unrecognized key".
const fieldErrors = {
  error: (issue: z.core.$ZodRawIssue) => {
    if (issue.code === 'unrecognized_keys')
      return `unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    return issue.input === undefined ? 'missing' : undefined;
  },
};

// Shown to the model as written: blank text would make an empty prompt line.
const text = z
  .string(fieldErrors)
  .refine((value) => value.trim() !== '', { message: 'must not be empty or blank' });

/** One step of a workflow: what the model is asked to do while it is the current step. */
export const WorkflowNodeSchema = z.strictObject(
  {
    /** Unique within the workflow; what edges and `complete_step({ step })` refer to. */
    id: text,
    name: text,
    /** Sent to the model as the current step's instruction. */
    instruction: text,
  },
  fieldErrors,
);

/** A way from one step to the next. */
export const WorkflowEdgeSchema = z.strictObject(
  {
    from: text,
    to: text,
    /** What the model passes as `complete_step({ edge })` to take it ("approved", "needs changes"). */
    label: text.optional(),
    /** Taken when the model names no edge. At most one per node. */
    default: z.boolean(fieldErrors).optional(),
  },
  fieldErrors,
);

/** A node-and-edge graph: the run starts at `entry`; a node without outgoing edges is an end node. */
export const WorkflowDefinitionSchema = z
  .strictObject(
    {
      id: text,
      name: text,
      entry: text,
      nodes: z.array(WorkflowNodeSchema, fieldErrors).min(1, { message: 'needs at least one node' }),
      edges: z.array(WorkflowEdgeSchema, fieldErrors),
    },
    fieldErrors,
  )
  .superRefine(checkGraph);

/** Workflows shipped together under one name (what a run context calls the package). */
export const WorkflowPackageSchema = z
  .strictObject(
    {
      name: text,
      workflows: z.array(WorkflowDefinitionSchema, fieldErrors),
    },
    fieldErrors,
  )
  .superRefine((pkg, ctx) => {
    const seen = new Map<string, number>();
    pkg.workflows.forEach((workflow, index) => {
      const first = seen.get(workflow.id);
      if (first === undefined) seen.set(workflow.id, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['workflows', index, 'id'],
          message: `duplicate workflow id ${JSON.stringify(workflow.id)} (also workflows[${first}])`,
        });
    });
  });

export type WorkflowNode = z.infer<typeof WorkflowNodeSchema>;
export type WorkflowEdge = z.infer<typeof WorkflowEdgeSchema>;
export type WorkflowDefinition = z.infer<typeof WorkflowDefinitionSchema>;
export type WorkflowPackage = z.infer<typeof WorkflowPackageSchema>;

const labelKey = (label: string) => label.trim().toLowerCase();

/**
 * The graph rules: node ids unique, edges between existing nodes, the entry exists, at most one
 * default edge and no two edges with the same label (case and spaces ignored) out of one node, and
 * every node reachable from the entry (an unreachable node is almost always a typo in an edge).
 */
function checkGraph(
  workflow: { entry: string; nodes: WorkflowNode[]; edges: WorkflowEdge[] },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message });
  const nodeIndex = new Map<string, number>();
  workflow.nodes.forEach((node, index) => {
    const first = nodeIndex.get(node.id);
    if (first === undefined) nodeIndex.set(node.id, index);
    else issue(['nodes', index, 'id'], `duplicate node id ${JSON.stringify(node.id)} (also nodes[${first}])`);
  });
  if (!nodeIndex.has(workflow.entry))
    issue(['entry'], `no node has the id ${JSON.stringify(workflow.entry)}`);

  const defaults = new Map<string, number>();
  const labels = new Map<string, number>();
  const next = new Map<string, string[]>();
  workflow.edges.forEach((edge, index) => {
    let valid = true;
    for (const end of ['from', 'to'] as const) {
      if (!nodeIndex.has(edge[end])) {
        issue(['edges', index, end], `no node has the id ${JSON.stringify(edge[end])}`);
        valid = false;
      }
    }
    if (edge.default === true) {
      const first = defaults.get(edge.from);
      if (first === undefined) defaults.set(edge.from, index);
      else
        issue(
          ['edges', index, 'default'],
          `node ${JSON.stringify(edge.from)} already has a default edge (edges[${first}])`,
        );
    }
    if (edge.label !== undefined) {
      const key = `${edge.from}\0${labelKey(edge.label)}`;
      const first = labels.get(key);
      if (first === undefined) labels.set(key, index);
      else
        issue(
          ['edges', index, 'label'],
          `node ${JSON.stringify(edge.from)} already has an edge labelled ${JSON.stringify(edge.label)} (edges[${first}])`,
        );
    }
    if (valid) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  });

  if (!nodeIndex.has(workflow.entry)) return;
  const reached = new Set([workflow.entry]);
  const queue = [workflow.entry];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const to of next.get(id) ?? []) {
      if (reached.has(to)) continue;
      reached.add(to);
      queue.push(to);
    }
  }
  workflow.nodes.forEach((node, index) => {
    if (!reached.has(node.id) && nodeIndex.get(node.id) === index) {
      issue(
        ['nodes', index, 'id'],
        `node ${JSON.stringify(node.id)} cannot be reached from the entry ${JSON.stringify(workflow.entry)}`,
      );
    }
  });
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const issues = validationIssues(schema, value);
  const first = issues[0];
  if (first === undefined) return schema.parse(value);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new CairnError('INVALID_ARGUMENT', `Invalid ${what} at ${first.path}: ${first.message}${more}`, {
    details: { issues },
  });
}

/** Every reason `value` is not a valid workflow package; empty when it is. */
export function workflowPackageIssues(value: unknown): ValidationIssue[] {
  return validationIssues(WorkflowPackageSchema, value);
}

/** Every reason `value` is not a valid workflow definition; empty when it is. */
export function workflowDefinitionIssues(value: unknown): ValidationIssue[] {
  return validationIssues(WorkflowDefinitionSchema, value);
}

/** The package, checked; throws `INVALID_ARGUMENT` naming the first bad field (`workflows[0].edges[2].to`). */
export function parseWorkflowPackage(value: unknown): WorkflowPackage {
  return parseOrThrow(WorkflowPackageSchema, value, 'workflow package');
}

/** The definition, checked; throws `INVALID_ARGUMENT` naming the first bad field (`edges[2].to`). */
export function parseWorkflowDefinition(value: unknown): WorkflowDefinition {
  return parseOrThrow(WorkflowDefinitionSchema, value, 'workflow definition');
}

/** The node with this id, if any. */
export function workflowNode(workflow: WorkflowDefinition, nodeId: string): WorkflowNode | undefined {
  return workflow.nodes.find((node) => node.id === nodeId);
}

/** The edges out of a node, in definition order. */
export function outgoingEdges(workflow: WorkflowDefinition, nodeId: string): WorkflowEdge[] {
  return workflow.edges.filter((edge) => edge.from === nodeId);
}

/** A node without outgoing edges: completing it completes the workflow. */
export function isEndNode(workflow: WorkflowDefinition, nodeId: string): boolean {
  return !workflow.edges.some((edge) => edge.from === nodeId);
}
