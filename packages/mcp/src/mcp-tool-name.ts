import { createHash } from 'node:crypto';

const MAX_LENGTH = 64;
const SUFFIX_LENGTH = 9; // `_` and 8 hex digits

/** One MCP tool to name: its server and its own name. */
export interface McpToolRef {
  server: string;
  tool: string;
}

const key = (ref: McpToolRef) => `${ref.server}\u0000${ref.tool}`;

function sanitise(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * Cairn names of MCP tools: `mcp__<server>__<tool>` (Claude Code's convention), each character a
 * provider refuses replaced by `_`, at most 64 characters (what OpenAI, Anthropic and Gemini all
 * accept). A name that is too long, or that two tools would share after sanitising, ends in `_` and
 * 8 hex digits of a hash of the server and tool: the same tools always get the same names, whatever
 * order the servers list them in.
 */
export function mcpToolNames(refs: readonly McpToolRef[]): Map<string, string> {
  const plain = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const ref of refs) {
    const name = `mcp__${sanitise(ref.server)}__${sanitise(ref.tool)}`;
    plain.set(key(ref), name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  for (const ref of refs) {
    const name = plain.get(key(ref)) as string;
    const unique = counts.get(name) === 1 && name.length <= MAX_LENGTH;
    if (unique) {
      names.set(key(ref), name);
      continue;
    }
    const hash = createHash('sha256').update(key(ref)).digest('hex').slice(0, 8);
    names.set(key(ref), `${name.slice(0, MAX_LENGTH - SUFFIX_LENGTH)}_${hash}`);
  }
  return names;
}

/** The name `mcpToolNames` gave `ref`. */
export function mcpToolName(names: ReadonlyMap<string, string>, ref: McpToolRef): string {
  return names.get(key(ref)) as string;
}
