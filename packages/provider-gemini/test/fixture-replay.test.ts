import { readFileSync } from 'node:fs';
import type { AgentOutput, ModelMessage, ModelResult } from '@cairn/core';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from '../src/index.js';

// The five real `streamGenerateContent?alt=sse` bodies of the shared scenario (see
// __fixtures__/gemini-api), replayed byte for byte through the mock server and the real SDK, as
// one conversation: each turn's message and tool results go into the next request.

const fixture = (turn: number) =>
  readFileSync(new URL(`__fixtures__/gemini-api/sse-turn${turn}.txt`, import.meta.url), 'utf8');

const SIGNATURE = 'bW9jay10aG91Z2h0LXNpZ25hdHVyZS1ub3QtcmVhbA==';
const DIR = '/home/dev/work-gemini-stream';

interface Replayed {
  events: AgentOutput[];
  result: ModelResult;
  /** The request messages the turn answered. */
  messages: ModelMessage[];
}

let server: MockProviderServer;
const turns: Replayed[] = [];

// What the scenario's tools answered (the read of turn 4 fails).
const TOOL_RESULTS: Array<{ content: string; isError?: boolean }> = [
  { content: `Successfully created and wrote to new file: ${DIR}/hello.txt.` },
  { content: `Successfully modified file: ${DIR}/hello.txt (1 replacements).` },
  { content: 'total 12\n-rw-r--r-- 1 dev dev 56 hello.txt' },
  { content: `File not found: ${DIR}/does-not-exist.txt`, isError: true },
];

beforeAll(async () => {
  server = await startMockProviderServer({
    provider: 'gemini',
    turns: [1, 2, 3, 4, 5].map((turn) => ({ rawSse: fixture(turn) })),
  });
  const adapter = createGeminiAdapter({
    model: 'gemini-3.8-flash',
    baseURL: server.baseURL,
    apiKey: 'test-key',
  });
  const messages: ModelMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    {
      role: 'user',
      content:
        'Create hello.txt containing a greeting, change the greeting, list the directory, then check whether does-not-exist.txt exists.',
    },
  ];
  for (let turn = 0; turn < 5; turn++) {
    const stream = adapter.stream({ messages: [...messages] });
    const events: AgentOutput[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    turns.push({ events, result, messages: [...messages] });
    messages.push(result.message);
    const toolResult = TOOL_RESULTS[turn];
    for (const call of result.message.tool_calls ?? []) {
      if (toolResult !== undefined) messages.push({ role: 'tool', tool_call_id: call.id, ...toolResult });
    }
  }
});

afterAll(() => server.close());

const replayed = (turn: number): Replayed => {
  const found = turns[turn - 1];
  if (found === undefined) throw new Error(`turn ${turn} was not replayed`);
  return found;
};

const typesOf = (events: AgentOutput[]) => events.map((event) => event.type);

describe('captured Gemini SSE turns', () => {
  it('turn 1: a thought, text over two chunks, a signed write_file call', () => {
    const { events, result } = replayed(1);
    const [call] = result.message.tool_calls ?? [];
    expect(call?.id).toMatch(/^call_[0-9a-f]{24}$/);
    const id = call?.id ?? '';
    const args = {
      file_path: `${DIR}/hello.txt`,
      content: 'Hello, world!\nThis file was written by the mock model.\n',
    };
    expect(result).toEqual({
      message: {
        role: 'assistant',
        content: "I'll create hello.txt with a greeting.",
        tool_calls: [
          { id, type: 'function', function: { name: 'write_file', arguments: JSON.stringify(args) } },
        ],
        // The thought part itself carries no signature in this capture; the call does.
        reasoning: [
          {
            text: '**Planning the file task**\n\nI need to create hello.txt first, so I will call write_file.',
          },
        ],
        providerMetadata: { gemini: { [id]: { thoughtSignature: SIGNATURE } } },
      },
      usage: { inputTokens: 11577, outputTokens: 103, totalTokens: 11680, reasoningTokens: 30 },
      finishReason: 'tool_calls',
      rawFinishReason: 'STOP',
      responseId: 'mockResp4610830002',
      modelId: 'gemini-3.8-flash',
    });
    expect(typesOf(events)).toEqual([
      'reasoning_delta',
      'reasoning',
      'text_delta',
      'text_delta',
      'text',
      'tool_input_delta',
      'tool_use',
      'usage',
      'finish',
    ]);
    expect(events.filter((e) => e.type === 'text_delta').map((e) => e.delta)).toEqual([
      "I'll create hello.txt with a g",
      'reeting.',
    ]);
    expect(events.find((e) => e.type === 'tool_use')).toMatchObject({
      id,
      toolName: 'write_file',
      input: args,
      providerMetadata: { gemini: { thoughtSignature: SIGNATURE } },
    });
    expect(events.every((e) => e.messageId === 'mockResp4610830002')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls', rawReason: 'STOP' });
  });

  it('turn 2: text and a replace call', () => {
    const { result } = replayed(2);
    expect(result.message.content).toBe('Now I will edit the greeting.');
    expect(
      result.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
    ).toEqual([
      [
        'replace',
        {
          file_path: `${DIR}/hello.txt`,
          instruction: 'Change the greeting to address the acceptance tests.',
          old_string: 'Hello, world!',
          new_string: 'Hello, acceptance tests!',
        },
      ],
    ]);
    expect(result.usage).toEqual({ inputTokens: 11740, outputTokens: 87, totalTokens: 11827 });
    expect(result).toMatchObject({
      finishReason: 'tool_calls',
      rawFinishReason: 'STOP',
      responseId: 'mockResp4612040003',
    });
  });

  it('turn 3: a shell call and no text', () => {
    const { result, events } = replayed(3);
    expect(result.message.content).toBeNull();
    expect(result.message.reasoning).toBeUndefined();
    expect(
      result.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
    ).toEqual([
      ['run_shell_command', { command: 'ls -la', description: 'List files in the working directory' }],
    ]);
    expect(result.usage).toEqual({ inputTokens: 11917, outputTokens: 48, totalTokens: 11965 });
    expect(typesOf(events)).toEqual(['tool_input_delta', 'tool_use', 'usage', 'finish']);
  });

  it('turn 4: text over two chunks and a read_file call', () => {
    const { result } = replayed(4);
    expect(result.message.content).toBe('Let me check whether a notes file exists.');
    expect(
      result.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
    ).toEqual([['read_file', { file_path: `${DIR}/does-not-exist.txt` }]]);
    expect(result.usage).toEqual({ inputTokens: 12075, outputTokens: 58, totalTokens: 12133 });
  });

  it('turn 5: the final answer over five chunks, finish STOP', () => {
    const { result, events } = replayed(5);
    expect(result.message).toEqual({
      role: 'assistant',
      content:
        'Done. I created hello.txt, changed its greeting to "Hello, acceptance tests!", listed the directory, and confirmed that does-not-exist.txt is missing.',
    });
    expect(result).toMatchObject({
      usage: { inputTokens: 12195, outputTokens: 41, totalTokens: 12236 },
      finishReason: 'stop',
      rawFinishReason: 'STOP',
      responseId: 'mockResp4613400006',
      modelId: 'gemini-3.8-flash',
    });
    expect(typesOf(events)).toEqual([...Array(5).fill('text_delta'), 'text', 'usage', 'finish']);
  });

  it('gives every call its own stable id and maps each tool result back to its function', () => {
    const ids = turns.flatMap((t) => t.result.message.tool_calls?.map((c) => c.id) ?? []);
    expect(new Set(ids).size).toBe(4);
    expect(server.requests).toHaveLength(5);
    const last = server.requests[4]?.body as {
      contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    };
    expect(last.contents.map((c) => c.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
    expect(last.contents.flatMap((c) => c.parts.map((p) => p.functionResponse))).toEqual([
      undefined,
      undefined,
      undefined,
      { name: 'write_file', response: { content: TOOL_RESULTS[0]?.content } },
      undefined,
      undefined,
      { name: 'replace', response: { content: TOOL_RESULTS[1]?.content } },
      undefined,
      { name: 'run_shell_command', response: { content: TOOL_RESULTS[2]?.content } },
      undefined,
      undefined,
      { name: 'read_file', response: { error: TOOL_RESULTS[3]?.content } },
    ]);
  });

  it('sends each function call back with its thought signature, and the unsigned thought not at all', () => {
    const second = server.requests[1]?.body as { contents: unknown[]; systemInstruction: unknown };
    expect(second.systemInstruction).toEqual({
      parts: [{ text: 'You are a coding agent.' }],
    });
    expect(second.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: "I'll create hello.txt with a greeting." },
        {
          functionCall: {
            name: 'write_file',
            args: {
              file_path: `${DIR}/hello.txt`,
              content: 'Hello, world!\nThis file was written by the mock model.\n',
            },
          },
          thoughtSignature: SIGNATURE,
        },
      ],
    });
  });

  it('reads the same turn into the same message twice (ids are deterministic)', async () => {
    const again = await startMockProviderServer({ provider: 'gemini', turns: [{ rawSse: fixture(1) }] });
    try {
      const adapter = createGeminiAdapter({ model: 'gemini-3.8-flash', baseURL: again.baseURL, apiKey: 'k' });
      const { messages, result } = replayed(1);
      expect((await adapter.stream({ messages }).result).message).toEqual(result.message);
    } finally {
      await again.close();
    }
  });
});
