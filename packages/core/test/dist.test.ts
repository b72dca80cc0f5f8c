// Checks the package as users get it: the built `dist`, imported by name in a separate Node
// process, the shipped JSON Schemas, and the README example. Needs `pnpm build` first (turbo runs
// this package's build before its tests).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

async function node(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, args, { cwd: packageDir });
  return stdout;
}

describe('the built package', () => {
  it('validates the seed messages and converts them exactly as specified, imported by name', async () => {
    const script = `
      import { isValidConversationMessage, isToolCallMessage, toOpenAIMessage } from '@cairn/core';
      const createdAt = '2026-01-18T00:00:00Z';
      const call = { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path": "test.txt"}' } };
      const user = { id: '1', role: 'user', content: 'Hello', createdAt };
      const assistant = { id: '2', role: 'assistant', content: null, tool_calls: [call], createdAt };
      const tool = { id: '3', role: 'tool', content: 'file contents here', tool_call_id: 'call_1', createdAt };
      const legacy = { id: '100', role: 'assistant', content: 'Hello world', createdAt: '2025-01-01T00:00:00Z', partType: 'content' };
      const orphan = { id: '4', role: 'tool', content: 'x', createdAt };
      console.log(JSON.stringify({
        valid: [user, assistant, tool, legacy, orphan].map(isValidConversationMessage),
        toolCall: isToolCallMessage(assistant),
        converted: [user, assistant, tool].map(toOpenAIMessage),
      }));`;
    const output = JSON.parse(await node('--input-type=module', '-e', script));
    expect(output).toEqual({
      valid: [true, true, true, true, false],
      toolCall: true,
      converted: [
        { role: 'user', content: 'Hello' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path": "test.txt"}' },
            },
          ],
        },
        { role: 'tool', content: 'file contents here', tool_call_id: 'call_1' },
      ],
    });
  });

  it('ships the JSON Schemas under their exported names', async () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      console.log(JSON.stringify([
        require.resolve('@cairn/core/schemas/conversation-message.json'),
        require.resolve('@cairn/core/schemas/agent-output.json'),
      ]));`;
    const [messagePath, eventPath] = JSON.parse(await node('--input-type=module', '-e', script)) as string[];
    const { agentOutputJsonSchema, conversationMessageJsonSchema } = await import('../src/json-schema.js');
    expect(JSON.parse(await readFile(messagePath as string, 'utf8'))).toEqual(
      conversationMessageJsonSchema(),
    );
    expect(JSON.parse(await readFile(eventPath as string, 'utf8'))).toEqual(agentOutputJsonSchema());
  });

  it('runs the quickstart example', async () => {
    const output = await node('examples/quickstart.mjs');
    expect(output).toContain('#5 assistant "Saved to favourites."  [hidden from the model]');
    const request = JSON.parse(output.slice(output.indexOf('\n[') + 1, output.indexOf('\n]') + 2));
    expect(request).toHaveLength(4);
    expect(request[2]).toEqual({ role: 'tool', content: 'hello from test.txt', tool_call_id: 'call_1' });
    expect(output).toContain('INVALID_MESSAGE: Invalid conversation message at tool_call_id');
    expect(output).toContain('INVALID_ID: Invalid conversationId "../../etc/passwd"');
  });

  it('runs the README example', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const [request, message] = (await node('--input-type=module', '-e', example as string))
      .trim()
      .split('\n');
    expect(JSON.parse(request as string)).toEqual([
      { role: 'user', content: 'What does test.txt say?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"test.txt"}' },
          },
        ],
      },
      { role: 'tool', content: 'hello', tool_call_id: 'call_1' },
    ]);
    expect(message).toBe('Invalid conversation message at tool_call_id: a tool message needs tool_call_id');
  });
});
