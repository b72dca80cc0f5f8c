import {
  type AgentOutput,
  type LoopCompressionPipeline,
  type ModelMessage,
  toolProtocolIssues,
} from '@cairn/core';
import { ScriptedModel, type ScriptTurn, simulatedDelay } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelAnswering, toolCall } from '../test/loop-test-models.js';
import { commandTool, echoTool, failingTool, weatherTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import type { ChatToolLoopParams, LoopAssistantMessage } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

const host = createToolHost([echoTool, weatherTool, failingTool, commandTool]);

const user = (content: string): ModelMessage => ({ role: 'user', content });

function loop(
  turns: ScriptTurn[] | ((request: never, index: number) => ScriptTurn),
  params: Partial<ChatToolLoopParams> = {},
) {
  const model = new ScriptedModel({ turns: turns as ScriptTurn[] });
  const messages: ModelMessage[] = [user('Hi')];
  const log: string[] = [];
  const events: AgentOutput[] = [];
  const result = chatToolLoop({
    model,
    tools: host,
    messages,
    onTurnStart: ({ turn }) => void log.push(`start ${turn}`),
    onAssistantMessage: (message) => void log.push(`assistant ${message.turn}`),
    onToolMessage: (message) => void log.push(`tool ${message.tool_call_id}`),
    onTurnEnd: ({ turn }) => void log.push(`end ${turn}`),
    onEvent: (event) => void events.push(event),
    ...params,
  });
  return { model, messages, log, events, result };
}

// Every call in `messages` is answered, each by exactly one result, right after its message.
function expectCompleteProtocol(messages: ModelMessage[]) {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as ModelMessage;
    if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
    const results = messages.slice(index + 1, index + 1 + message.tool_calls.length);
    expect(results.map((result) => (result.role === 'tool' ? result.tool_call_id : result.role))).toEqual(
      message.tool_calls.map((call) => call.id),
    );
  }
}

describe('chatToolLoop', () => {
  it('runs tool calls turn after turn until the model answers, calling back in order', async () => {
    const { result, messages, log, events, model } = loop([
      {
        text: 'Checking.',
        toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      {
        toolCalls: [{ id: 'c2', name: 'echo', arguments: { text: 'cold' } }],
        usage: { inputTokens: 20, outputTokens: 3 },
      },
      { text: 'It is cold in Oslo.', usage: { inputTokens: 30, outputTokens: 7 } },
    ]);
    const outcome = await result;
    expect(outcome).toMatchObject({ success: true, turns: 3, finishReason: 'stop' });
    expect(outcome.message?.content).toBe('It is cold in Oslo.');
    expect(outcome.text).toBe('It is cold in Oslo.');
    expect(outcome.usage.turns.map((usage) => usage.inputTokens)).toEqual([10, 20, 30]);
    expect(outcome.usage.total).toMatchObject({ inputTokens: 60, outputTokens: 15 });
    expect(outcome.messages).toBe(messages);
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '{"city":"Oslo","celsius":4}' });
    expect(log).toEqual([
      'start 1',
      'assistant 1',
      'tool c1',
      'end 1',
      'start 2',
      'assistant 2',
      'tool c2',
      'end 2',
      'start 3',
      'assistant 3',
      'end 3',
    ]);
    // The model saw each result before answering, and the tools it may call.
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(model.requests[0]?.messages).toHaveLength(1);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual([
      'echo',
      'get_weather',
      'fail',
      'run',
    ]);
    // Streamed: model events, then the loop's tool results.
    expect(
      events
        .filter((event) => event.type === 'tool_result')
        .map((event) => event.type === 'tool_result' && event.toolUseId),
    ).toEqual(['c1', 'c2']);
    expect(events.some((event) => event.type === 'text_delta')).toBe(true);
  });

  it('gives every message handed to a callback a distinct id, and the tool message what a persister needs', async () => {
    const assistants: unknown[] = [];
    const tools: unknown[] = [];
    const { result } = loop(
      [{ toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Rome' } }] }, { text: 'Warm.' }],
      {
        onAssistantMessage: (message) => void assistants.push(message),
        onToolMessage: (message) => void tools.push(message),
      },
    );
    await result;
    expect(tools).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        turn: 1,
        role: 'tool',
        tool_call_id: 'c1',
        content: '{"city":"Rome","celsius":4}',
        toolName: 'get_weather',
        duration: expect.any(Number),
        isError: false,
        structured: { city: 'Rome', celsius: 4 },
      },
    ]);
    expect(assistants[0]).toMatchObject({
      role: 'assistant',
      turn: 1,
      finishReason: 'tool_calls',
      usage: expect.any(Object),
    });
    const ids = [...assistants, ...tools].map((message) => (message as { id: string }).id);
    expect(new Set(ids).size).toBe(3);
  });

  it('runs the calls of one message in parallel, up to the concurrency, and keeps their results in call order', async () => {
    let running = 0;
    let most = 0;
    const finished: string[] = [];
    const timed = defineTool({
      name: 'timed',
      description: 'Takes a while',
      category: 'test',
      input: z.object({ ms: z.number() }),
      async execute({ ms }, { toolCallId }) {
        most = Math.max(most, ++running);
        await simulatedDelay(ms);
        running--;
        finished.push(toolCallId);
        return `${ms}`;
      },
    });
    const handed: string[] = [];
    const delays = [60, 10, 30, 5];
    const { result, messages } = loop(
      [
        { toolCalls: delays.map((ms, index) => ({ id: `c${index}`, name: 'timed', arguments: { ms } })) },
        { text: 'Done' },
      ],
      {
        tools: createToolHost([timed]),
        toolConcurrency: 2,
        onToolMessage: (message) => void handed.push(message.tool_call_id),
      },
    );
    await result;
    expect(most).toBe(2);
    expect(finished).not.toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(handed).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      '60',
      '10',
      '30',
      '5',
    ]);
  });

  it('tells the model what went wrong with a call and goes on', async () => {
    const { result, messages } = loop(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'nope', arguments: {} },
            { id: 'c2', name: 'echo', arguments: '{"text":' },
            { id: 'c3', name: 'echo', arguments: { words: 'x' } },
            { id: 'c4', name: 'fail', arguments: {} },
            { id: 'c5', name: 'get_weather', arguments: { city: 'Oslo' } },
          ],
        },
        { text: 'Some failed.' },
      ],
      { policy: { deny: { categories: ['web'] } } },
    );
    const outcome = await result;
    expect(outcome.success).toBe(true);
    const results = messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.isError)).toEqual([true, true, true, true, true]);
    expect(results.map((message) => message.content.slice(0, 24))).toEqual([
      'There is no tool named "',
      'The arguments for echo a',
      'Invalid arguments for ec',
      'it is broken',
      'The tool get_weather is ',
    ]);
  });

  it('returns a model failure as its CairnError, reported once, with nothing half-pushed', async () => {
    const { result, messages, events } = loop([{ fault: { status: 401 } }]);
    const outcome = await result;
    expect(outcome).toMatchObject({
      success: false,
      turns: 1,
      finishReason: 'error',
      error: { code: 'LLM_AUTH' },
    });
    expect(messages).toHaveLength(1);
    expect(outcome.text).toBe('');
    expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
    const generated = loop([{ fault: { status: 500 } }], { stream: false });
    const failed = await generated.result;
    expect(failed.error?.code).toBe('LLM_UNAVAILABLE');
    expect(generated.events).toEqual([
      expect.objectContaining({ type: 'error', code: 'LLM_UNAVAILABLE', fatal: true }),
    ]);
  });

  it('aborted while the model streams: LLM_ABORTED, and the text shown so far kept as an interrupted answer', async () => {
    const controller = new AbortController();
    const handed: LoopAssistantMessage[] = [];
    let deltas = 0;
    const { result, messages, events, log } = loop(
      [{ text: 'a long answer that streams slowly', chunkSize: 2, chunkDelayMs: 20 }],
      {
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'text_delta' && ++deltas === 3) controller.abort();
        },
        onAssistantMessage: (message) => {
          handed.push(message);
          log.push(`assistant ${message.turn}`);
        },
      },
    );
    const outcome = await result;
    expect(outcome).toMatchObject({
      success: false,
      finishReason: 'aborted',
      error: { code: 'LLM_ABORTED' },
    });
    const shown = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : [])).join('');
    expect(shown).toBe('a long');
    expect(messages.slice(1)).toEqual([{ role: 'assistant', content: shown }]);
    expect(handed).toEqual([
      expect.objectContaining({ content: shown, interrupted: true, finishReason: 'aborted', turn: 1 }),
    ]);
    expect(handed[0]?.tool_calls).toBeUndefined();
    expect(outcome.message).toBe(handed[0]);
    expect(log).toEqual(['start 1', 'assistant 1', 'end 1']);
  });

  it('a stream cut after some text: the failure is the result, and the text shown is kept as interrupted', async () => {
    const handed: LoopAssistantMessage[] = [];
    const { result, messages } = loop([{ text: 'partial answer here', chunkSize: 4, cutAfterEvents: 3 }], {
      onAssistantMessage: (message) => void handed.push(message),
    });
    const outcome = await result;
    expect(outcome).toMatchObject({ success: false, finishReason: 'error' });
    expect(outcome.error?.code).toMatch(/^LLM_/);
    expect(messages.slice(1)).toEqual([{ role: 'assistant', content: 'partial ' }]);
    expect(outcome.text).toBe('partial ');
    expect(handed).toEqual([
      expect.objectContaining({ content: 'partial ', interrupted: true, finishReason: 'error' }),
    ]);
  });

  it('aborted before the model streamed any text: nothing is kept', async () => {
    const controller = new AbortController();
    const handed: string[] = [];
    // Aborted once the model has the request, while it takes its time before the first token.
    const turn = (): ScriptTurn => {
      controller.abort();
      return { text: 'never shown', delayMs: 200 };
    };
    const { result, messages } = loop(turn, {
      signal: controller.signal,
      onAssistantMessage: (message) => void handed.push(message.id),
    });
    expect(await result).toMatchObject({ finishReason: 'aborted', error: { code: 'LLM_ABORTED' } });
    expect(messages).toHaveLength(1);
    expect(handed).toEqual([]);
  });

  it('aborted while tools run: finished results kept, the others answered as interrupted', async () => {
    const controller = new AbortController();
    const handed: { id: string; interrupted?: boolean }[] = [];
    const { result, messages } = loop(
      [
        {
          toolCalls: [
            { id: 'fast', name: 'echo', arguments: { text: 'a' } },
            { id: 'slow', name: 'echo', arguments: { text: 'b', delayMs: 60_000 } },
          ],
        },
      ],
      {
        signal: controller.signal,
        onToolMessage: (message) => {
          handed.push({ id: message.tool_call_id, ...(message.interrupted ? { interrupted: true } : {}) });
          if (message.tool_call_id === 'fast') controller.abort();
        },
      },
    );
    const outcome = await result;
    expect(outcome).toMatchObject({
      success: false,
      finishReason: 'aborted',
      error: { code: 'LLM_ABORTED' },
    });
    expect(handed).toEqual([{ id: 'fast' }, { id: 'slow', interrupted: true }]);
    expectCompleteProtocol(messages);
    expect(messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'slow',
      isError: true,
      content: expect.stringMatching(/^Interrupted/),
    });
  });

  it('stops on the same failing call repeating, and carries the count between loops', async () => {
    const failAgain: ScriptTurn = { toolCalls: [{ name: 'run', arguments: { command: 'lss' } }] };
    const { result, messages } = loop([failAgain, failAgain, failAgain, { text: 'never reached' }]);
    const outcome = await result;
    expect(outcome).toMatchObject({
      success: false,
      turns: 3,
      finishReason: 'tool_calls',
      error: { code: 'LOOP_STUCK' },
      consecutiveFailCount: 3,
    });
    expect(outcome.error?.message).toMatch(
      /run failed the same way 3 times in a row \(TOOL_FAILED: Exit code 2\)/,
    );
    expectCompleteProtocol(messages);
    // A different failure, or a success, starts over.
    const varied = loop([
      failAgain,
      { toolCalls: [{ name: 'run', arguments: { command: 'cta' } }] },
      failAgain,
      { toolCalls: [{ name: 'echo', arguments: { text: 'ok' } }] },
      failAgain,
      { text: 'done' },
    ]);
    expect((await varied.result).success).toBe(true);
    // A run resuming with two identical failures behind it stops at the first repeat.
    const resumed = loop([failAgain, { text: 'never reached' }], {
      lastFailFingerprint: outcome.lastFailFingerprint,
      consecutiveFailCount: 2,
    });
    expect((await resumed.result).error?.code).toBe('LOOP_STUCK');
  });

  it('stops after maxTurns with every call answered', async () => {
    const again = (_request: never, index: number): ScriptTurn => ({
      toolCalls: [{ name: 'echo', arguments: { text: `${index}` } }],
    });
    const { result, messages, model } = loop(again, { maxTurns: 4 });
    const outcome = await result;
    expect(outcome).toMatchObject({ success: false, turns: 4, error: { code: 'LOOP_MAX_TURNS' } });
    // The last message only called tools: no text to give.
    expect(outcome.text).toBe('');
    expect(model.requests).toHaveLength(4);
    expectCompleteProtocol(messages);
    expect(messages.at(-1)?.role).toBe('tool');
  });

  it('compresses only the history before the loop, before a call that needs it', async () => {
    const history: ModelMessage[] = [
      { role: 'system', content: 'Be brief.' },
      user('old question'),
      { role: 'assistant', content: 'old answer' },
      user('Weather in Oslo?'),
    ];
    const starts: number[] = [];
    const pipeline: LoopCompressionPipeline = {
      // Over budget past 5 messages, as long as the old exchange is still there to compress.
      shouldCompress: (messages) =>
        messages.length > 5 && messages.some((message) => message.content === 'old answer'),
      compressHistoricalMessages(messages, loopStartIndex) {
        starts.push(loopStartIndex);
        const summary: ModelMessage = {
          role: 'user',
          content: `[summary of ${loopStartIndex - 1} messages]`,
        };
        return {
          messages: [messages[0] as ModelMessage, summary, ...messages.slice(loopStartIndex)],
          newLoopStartIndex: 2,
        };
      },
    };
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'a' } }] },
        { toolCalls: [{ id: 'c2', name: 'echo', arguments: { text: 'b' } }] },
        { toolCalls: [{ id: 'c3', name: 'echo', arguments: { text: 'c' } }] },
        { text: 'Cold.' },
      ],
    });
    const messages = [...history];
    const outcome = await chatToolLoop({ model, tools: host, messages, compressionPipeline: pipeline });
    expect(outcome.success).toBe(true);
    // Compressed once, before the second call (6 messages); the loop's own messages kept whole since.
    expect(starts).toEqual([4]);
    expect(model.requests.map((request) => request.messages.length)).toEqual([4, 4, 6, 8]);
    expect(model.requests[1]?.messages.slice(0, 2)).toEqual([
      history[0],
      { role: 'user', content: '[summary of 3 messages]' },
    ]);
    expect(messages.slice(2).map((message) => message.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it("fails clearly when a compression pipeline touches the loop's own messages", async () => {
    const pipeline: LoopCompressionPipeline = {
      shouldCompress: (messages) => messages.length > 2,
      compressHistoricalMessages: (messages) => ({ messages: messages.slice(-1), newLoopStartIndex: 0 }),
    };
    const { result, messages } = loop(
      [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'a' } }] }, { text: 'x' }],
      { compressionPipeline: pipeline },
    );
    const outcome = await result;
    expect(outcome).toMatchObject({ success: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(outcome.error?.message).toMatch(/may only compress what comes before/);
    expect(messages).toHaveLength(3);
  });

  it('a persister failing: the loop ends with its error and the log still answers every call', async () => {
    const { CairnError } = await import('@cairn/core');
    const { result, messages } = loop(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'echo', arguments: { text: 'a' } },
            { id: 'c2', name: 'echo', arguments: { text: 'b' } },
          ],
        },
      ],
      {
        onAssistantMessage: () => {
          throw new CairnError('STORE_UNAVAILABLE', 'disk full');
        },
      },
    );
    const outcome = await result;
    expect(outcome).toMatchObject({ success: false, error: { code: 'STORE_UNAVAILABLE' } });
    expectCompleteProtocol(messages);
    expect(messages.slice(-2).map((message) => message.content)).toEqual([
      expect.stringMatching(/^Interrupted.*disk full/),
      expect.stringMatching(/^Interrupted.*disk full/),
    ]);
  });

  it('works without streaming, and without tools', async () => {
    const { result, events } = loop(
      [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }],
      { stream: false },
    );
    expect((await result).success).toBe(true);
    expect(events.map((event) => event.type)).toEqual(['tool_result']);
    const model = new ScriptedModel({ turns: [{ text: 'Hello' }] });
    const bare = await chatToolLoop({ model, messages: [user('Hi')] });
    expect(bare).toMatchObject({ success: true, turns: 1 });
    expect(model.requests[0]?.tools).toBeUndefined();
  });

  it('refuses nonsense limits', async () => {
    const model = new ScriptedModel({ turns: [] });
    await expect(chatToolLoop({ model, messages: [], maxTurns: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(chatToolLoop({ model, messages: [], toolConcurrency: 1.5 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('keeps the history when a compression pipeline hands back the array it was given', async () => {
    const model = new ScriptedModel({
      turns: [{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
    });
    const messages: ModelMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
    ];
    const result = await chatToolLoop({
      model,
      tools: createToolHost([echoTool]),
      messages,
      compressionPipeline: {
        shouldCompress: (list) => list.length > 2,
        compressHistoricalMessages: (list, loopStartIndex) => ({
          messages: list as ModelMessage[],
          newLoopStartIndex: loopStartIndex,
        }),
      },
    });
    expect(result.success).toBe(true);
    expect(model.requests[1]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(messages).toHaveLength(5);
  });

  it('gives repeated call ids of one message ids of their own', async () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const result = await chatToolLoop({
      model: modelAnswering({
        role: 'assistant',
        content: null,
        tool_calls: [toolCall('dup'), toolCall('dup'), toolCall('dup')],
      }),
      tools: createToolHost([echoTool]),
      messages,
    });
    expect(result.success).toBe(true);
    const assistant = messages[1] as ModelMessage & { role: 'assistant' };
    expect(assistant.tool_calls?.map((toolCall) => toolCall.id)).toEqual(['dup', 'dup-2', 'dup-3']);
    expect(toolProtocolIssues(messages)).toEqual([]);
  });

  it('merges a layered policy: an agent can only narrow what the system allows', async () => {
    const model = new ScriptedModel({ turns: [{ text: 'hi' }] });
    await chatToolLoop({
      model,
      tools: createToolHost([echoTool, weatherTool]),
      messages: [{ role: 'user', content: 'go' }],
      policy: {
        system: { deny: { categories: ['web'] } },
        agent: { allow: { tools: ['echo', 'get_weather'] } },
      },
    });
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['echo']);
  });
});
