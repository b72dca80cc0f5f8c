import { readFileSync } from 'node:fs';
import { type AgentOutput, type ModelMessage, type ModelResult, parseAgentOutput } from '@cairn/core';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../src/index.js';

// The five captured Messages API SSE bodies (a real agent CLI's session: write, edit, ls, a failing
// read, a final answer), replayed byte for byte by the mock server and read through the real SDK.

const fixture = (turn: number) =>
  readFileSync(new URL(`./__fixtures__/anthropic-api/sse-turn${turn}.txt`, import.meta.url), 'utf8');

const dir = '/home/dev/work-claude-stream';

interface Expected {
  id: string;
  textDeltas: string[];
  toolCall?: { id: string; name: string; input: Record<string, unknown>; deltas: number };
  inputTokens: number;
  outputTokens: number;
  finish: 'tool_calls' | 'stop';
  rawFinish: 'tool_use' | 'end_turn';
}

const TURNS: Expected[] = [
  {
    id: 'msg_01MockA3883940002xxxxxxx',
    textDeltas: ["I'll create hello.txt wi", 'th a greeting.'],
    toolCall: {
      id: 'toolu_01MockA3883930001xxxxxxx',
      name: 'Write',
      input: {
        file_path: `${dir}/hello.txt`,
        content: 'Hello, world!\nThis file was written by the mock model.\n',
      },
      deltas: 7,
    },
    inputTokens: 19024,
    outputTokens: 69,
    finish: 'tool_calls',
    rawFinish: 'tool_use',
  },
  {
    id: 'msg_01MockA3884850005xxxxxxx',
    textDeltas: ['Now I will edit the gree', 'ting.'],
    toolCall: {
      id: 'toolu_01MockA3884840004xxxxxxx',
      name: 'Edit',
      input: {
        file_path: `${dir}/hello.txt`,
        old_string: 'Hello, world!',
        new_string: 'Hello, acceptance tests!',
      },
      deltas: 7,
    },
    inputTokens: 19162,
    outputTokens: 66,
    finish: 'tool_calls',
    rawFinish: 'tool_use',
  },
  {
    id: 'msg_01MockA3885510008xxxxxxx',
    textDeltas: [],
    toolCall: {
      id: 'toolu_01MockA3885500007xxxxxxx',
      name: 'Bash',
      input: { command: 'ls -la', description: 'List files in the working directory' },
      deltas: 4,
    },
    inputTokens: 19306,
    outputTokens: 39,
    finish: 'tool_calls',
    rawFinish: 'tool_use',
  },
  {
    id: 'msg_01MockA3886490011xxxxxxx',
    textDeltas: ['Let me check whether a n', 'otes file exists.'],
    toolCall: {
      id: 'toolu_01MockA3886490010xxxxxxx',
      name: 'Read',
      input: { file_path: `${dir}/does-not-exist.txt` },
      deltas: 4,
    },
    inputTokens: 19422,
    outputTokens: 54,
    finish: 'tool_calls',
    rawFinish: 'tool_use',
  },
  {
    id: 'msg_01MockA3886990013xxxxxxx',
    textDeltas: [
      'Done. I created hello.tx',
      't, changed its greeting ',
      'to "Hello, acceptance te',
      'sts!", listed the direct',
      'ory, and confirmed that ',
      'does-not-exist.txt is mi',
      'ssing.',
    ],
    inputTokens: 19539,
    outputTokens: 45,
    finish: 'stop',
    rawFinish: 'end_turn',
  },
];

const TOOL_RESULTS: Array<{ content: string; isError?: boolean }> = [
  { content: `File created successfully at: ${dir}/hello.txt` },
  { content: `The file ${dir}/hello.txt has been updated.` },
  { content: 'total 12\n-rw-r--r-- 1 dev dev 25 hello.txt' },
  { content: `File does not exist. Current working directory: ${dir}`, isError: true },
];

let server: MockProviderServer;
const runs: Array<{ events: AgentOutput[]; result: ModelResult }> = [];

// One conversation, as an agent loop would drive it: each reply and its tool result go into the
// next request.
beforeAll(async () => {
  server = await startMockProviderServer({
    provider: 'anthropic',
    turns: TURNS.map((_, index) => ({ rawSse: fixture(index + 1) })),
  });
  const adapter = createAnthropicAdapter({
    model: 'claude-opus-4-8',
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    // The replayed turns are compared whole; cache breakpoints are tested on their own.
    promptCaching: false,
  });
  const messages: ModelMessage[] = [
    {
      role: 'user',
      content:
        'Create hello.txt containing a greeting, change the greeting, list the directory, then check whether does-not-exist.txt exists.',
    },
  ];
  for (const [index] of TURNS.entries()) {
    const stream = adapter.stream({ messages: [...messages] });
    const events: AgentOutput[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    runs.push({ events, result });
    messages.push(result.message);
    const call = result.message.tool_calls?.[0];
    const toolResult = TOOL_RESULTS[index];
    if (call !== undefined && toolResult !== undefined) {
      messages.push({ role: 'tool', tool_call_id: call.id, ...toolResult });
    }
  }
});

afterAll(async () => {
  await server.close();
});

describe.each(TURNS.map((expected, index) => ({ turn: index + 1, expected })))(
  'captured SSE turn $turn',
  ({ turn, expected }) => {
    const run = () => {
      const replay = runs[turn - 1];
      if (replay === undefined) throw new Error(`turn ${turn} did not run`);
      return replay;
    };

    it('gives valid events in order, all of this message, finish exactly once and last', () => {
      const { events } = run();
      for (const event of events) parseAgentOutput(event);
      expect(new Set(events.map((event) => event.messageId))).toEqual(new Set([expected.id]));
      const text =
        expected.textDeltas.length > 0 ? [...expected.textDeltas.map(() => 'text_delta'), 'text'] : [];
      const tool = expected.toolCall
        ? [...Array(expected.toolCall.deltas).fill('tool_input_delta'), 'tool_use']
        : [];
      expect(events.map((event) => event.type)).toEqual([...text, ...tool, 'usage', 'finish']);
    });

    it('streams the text as captured and closes the block with the whole text', () => {
      const { events } = run();
      const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
      expect(deltas).toEqual(expected.textDeltas);
      const texts = events.filter((event) => event.type === 'text');
      expect(texts.map((event) => event.text)).toEqual(
        expected.textDeltas.length > 0 ? [expected.textDeltas.join('')] : [],
      );
    });

    it('parses the tool call input from its input_json_delta pieces', () => {
      const { events } = run();
      const uses = events.filter((event) => event.type === 'tool_use');
      if (expected.toolCall === undefined) {
        expect(uses).toEqual([]);
        return;
      }
      const { id, name, input } = expected.toolCall;
      expect(uses).toEqual([expect.objectContaining({ id, toolName: name, input })]);
      const pieces = events.flatMap((event) => (event.type === 'tool_input_delta' ? [event.delta] : []));
      expect(JSON.parse(pieces.join(''))).toEqual(input);
    });

    it('reports the usage and finish reason of message_start + message_delta', () => {
      const { events, result } = run();
      const usage = {
        inputTokens: expected.inputTokens,
        outputTokens: expected.outputTokens,
        totalTokens: expected.inputTokens + expected.outputTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      };
      expect(events.at(-2)).toMatchObject({ type: 'usage', usage });
      expect(events.at(-1)).toMatchObject({
        type: 'finish',
        reason: expected.finish,
        rawReason: expected.rawFinish,
      });
      expect(result).toMatchObject({
        usage,
        finishReason: expected.finish,
        rawFinishReason: expected.rawFinish,
        responseId: expected.id,
        modelId: 'claude-opus-4-8',
      });
    });

    it('builds the assistant message: text, and tool_calls with JSON-string arguments', () => {
      const { result } = run();
      const text = expected.textDeltas.join('');
      expect(result.message).toEqual({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(expected.toolCall
          ? {
              tool_calls: [
                {
                  id: expected.toolCall.id,
                  type: 'function',
                  function: {
                    name: expected.toolCall.name,
                    arguments: JSON.stringify(expected.toolCall.input),
                  },
                },
              ],
            }
          : {}),
      });
    });
  },
);

describe('the captured conversation sent back', () => {
  it('replays every reply and tool result in alternating turns, the failed read with is_error', () => {
    const last = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown[] }> };
    expect(server.requests).toHaveLength(5);
    expect(last.messages.map((turn) => turn.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(last.messages[3]?.content).toEqual([
      { type: 'text', text: 'Now I will edit the greeting.' },
      {
        type: 'tool_use',
        id: 'toolu_01MockA3884840004xxxxxxx',
        name: 'Edit',
        input: {
          file_path: `${dir}/hello.txt`,
          old_string: 'Hello, world!',
          new_string: 'Hello, acceptance tests!',
        },
      },
    ]);
    expect(last.messages[5]?.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_01MockA3885500007xxxxxxx',
        name: 'Bash',
        input: { command: 'ls -la', description: 'List files in the working directory' },
      },
    ]);
    expect(last.messages[8]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01MockA3886490010xxxxxxx',
        content: `File does not exist. Current working directory: ${dir}`,
        is_error: true,
      },
    ]);
  });
});
