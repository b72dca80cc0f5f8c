import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import { createGeminiCliConverter } from '@cairn/agent-cli/gemini-cli';
import {
  type AgentOutput,
  type ConversationMessage,
  type JsonValue,
  MAX_TOOL_INPUT_DEPTH,
  truncatedJsonMarker,
} from '@cairn/core';
import type { LineConverter } from '@cairn/provider-utils';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createMessageProcessor, toDisplayMessages } from '../src/index.js';

// A tool input nested 10,000 levels deep (valid JSON): `JSON.stringify` of it overflows the stack.
const DEPTH = 10_000;
const deepText = `${'{"a":'.repeat(DEPTH)}"leaf"${'}'.repeat(DEPTH)}`;
const cutText = `${'{"a":'.repeat(MAX_TOOL_INPUT_DEPTH - 1)}{"a":"${truncatedJsonMarker(MAX_TOOL_INPUT_DEPTH)}"}${'}'.repeat(MAX_TOOL_INPUT_DEPTH - 1)}`;

const claudeLines = [
  '{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash"],"model":"m"}',
  // Two blocks on one line: the converter cannot keep the input's own text, the processor serialises it.
  `{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Running it."},{"type":"tool_use","id":"t1","name":"Bash","input":${deepText}}]},"parent_tool_use_id":null,"session_id":"s1"}`,
  `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"ok"}]},"parent_tool_use_id":null,"session_id":"s1","tool_use_result":${deepText}}`,
  `{"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Still here."}]},"parent_tool_use_id":null,"session_id":"s1"}`,
  '{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":2,"result":"Still here.","session_id":"s1"}',
];
const geminiLines = [
  '{"type":"init","timestamp":"2026-11-22T08:51:01.036Z","session_id":"g1","model":"auto"}',
  `{"type":"tool_use","timestamp":"2026-11-22T08:51:01.148Z","tool_name":"run_shell_command","tool_id":"t1","parameters":${deepText}}`,
  '{"type":"tool_result","timestamp":"2026-11-22T08:51:01.195Z","tool_id":"t1","status":"success","output":"ok"}',
  '{"type":"message","timestamp":"2026-11-22T08:51:01.209Z","role":"assistant","content":"Still here.","delta":true}',
  '{"type":"result","timestamp":"2026-11-22T08:51:02.000Z","status":"success","stats":{"total_tokens":1,"input_tokens":1,"output_tokens":1,"duration_ms":5,"tool_calls":1}}',
];

// Converter → processor → store, as the executor runs them.
async function run(converter: LineConverter<AgentOutput>, lines: string[]) {
  const store = createMemoryConversationStore();
  const log: ConversationMessage[] = [];
  const processor = createMessageProcessor({ onLogMessage: (message) => log.push(message) });
  for (const line of lines) for (const event of converter.push(line)) processor.push(event);
  for (const event of converter.end()) processor.push(event);
  processor.end();
  await store.append('deep', log);
  return store.load('deep');
}

describe('a tool input nested 10,000 levels deep', () => {
  it.each([
    ['Claude Code', () => run(createClaudeCodeConverter(), claudeLines)],
    ['Gemini CLI', () => run(createGeminiCliConverter(), geminiLines)],
  ])('%s: the run goes on and the input is stored cut, with a marker', async (_name, pipeline) => {
    const stored = await pipeline();
    const call = stored.find((message) => message.tool_calls !== undefined)?.tool_calls?.[0];
    expect(call?.function.arguments).toBe(cutText);
    // What came after the call is stored too: the run did not end there.
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: 'Still here.' });
    expect(stored.find((message) => message.role === 'tool')).toMatchObject({ content: 'ok' });
    // The display view of the stored log serialises (no deep value is left in it).
    const display = toDisplayMessages(stored);
    const execution = display.find((message) => message.partType === 'tool_execution');
    expect(JSON.stringify(execution?.toolExecution?.input)).toBe(cutText);
    expect(() => JSON.stringify(display)).not.toThrow();
  });

  it('a stored log holding deep argument text (written before the limit) is shown cut', () => {
    const log: ConversationMessage[] = [
      {
        id: 'a1',
        role: 'assistant',
        createdAt: '2026-11-22T08:51:01.036Z',
        content: null,
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'Bash', arguments: deepText } }],
      },
    ];
    const [execution] = toDisplayMessages(log);
    const input = execution?.toolExecution?.input as JsonValue;
    expect(JSON.stringify(input)).toBe(cutText);
  });
});
