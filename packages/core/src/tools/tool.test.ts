import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool, ToolContext } from './tool.js';

const readFile: Tool<{ path: string }, string> = {
  name: 'read_file',
  description: 'Read a file',
  category: 'fs',
  input: z.object({ path: z.string() }),
  execute: ({ path }) => `contents of ${path}`,
  needsApproval: ({ path }) => path.startsWith('/etc'),
};

describe('Tool', () => {
  it('a tool with a specific input type fits in a registry of tools (checked by the type-checker)', async () => {
    // If `needsApproval` made Tool invariant in its input, this line would not compile.
    const registry: Tool[] = [readFile];
    const context: ToolContext = { toolCallId: 'call_1', signal: new AbortController().signal };
    const tool = registry[0] as Tool;
    const validated = await tool.input['~standard'].validate({ path: '/etc/passwd' });
    if (validated.issues !== undefined) throw new Error('the input did not validate');
    const input = validated.value;
    expect(typeof tool.needsApproval === 'function' && (await tool.needsApproval(input, context))).toBe(true);
    expect(await tool.execute(input, context)).toBe('contents of /etc/passwd');
  });
});
