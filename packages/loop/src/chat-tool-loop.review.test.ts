import {
  type AgentOutput,
  CairnError,
  type ModelAdapter,
  type ModelMessage,
  type OpenAIToolCall,
  toolProtocolIssues,
} from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { echoTool, sleep, weatherTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

// Edge cases found in review: each test failed before its fix.

const call = (id: string, name = 'echo', args: object = { text: id }): OpenAIToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** A model answering with `message` once, then with text. */
function modelAnswering(message: ModelMessage & { role: 'assistant' }): ModelAdapter {
  let turn = 0;
  return {
    provider: 'test',
    modelId: 'test',
    capabilities: { streaming: false, toolCalls: true, parallelToolCalls: true, reasoning: false },
    async generate() {
      turn++;
      return turn === 1
        ? { message, usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'tool_calls' }
        : {
            message: { role: 'assistant', content: 'done' },
            usage: { inputTokens: 1, outputTokens: 1 },
            finishReason: 'stop',
          };
    },
    stream() {
      throw new Error('not streaming');
    },
  };
}

describe('chatToolLoop edge cases', () => {
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

  it('after a failing persister, starts no further call and pushes nothing once it has returned', async () => {
    const started: string[] = [];
    const slow = defineTool({
      name: 'slow_echo',
      description: 'Echoes slowly',
      category: 'test',
      input: z.object({ text: z.string() }),
      async execute({ text }, { signal }) {
        started.push(text);
        await sleep(text === 'a' ? 5 : 50, signal);
        return text;
      },
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const handed: string[] = [];
    const result = await chatToolLoop({
      model: modelAnswering({
        role: 'assistant',
        content: null,
        tool_calls: ['a', 'b', 'c', 'd'].map((id) => call(id, 'slow_echo')),
      }),
      tools: createToolHost([slow]),
      toolConcurrency: 2,
      messages,
      onToolMessage: (message) => {
        handed.push(message.tool_call_id);
        if (message.tool_call_id === 'a') throw new CairnError('STORE_UNAVAILABLE', 'disk full');
      },
    });
    expect(result.error?.code).toBe('STORE_UNAVAILABLE');
    const settled = [...messages];
    await sleep(100);
    expect(messages).toEqual(settled);
    expect(started).toEqual(['a', 'b']);
    expect(toolProtocolIssues(messages)).toEqual([]);
    expect(messages.filter((message) => message.role === 'tool')).toHaveLength(4);
  });

  it('rethrows an onEvent failure after completing the log, streaming or not', async () => {
    for (const stream of [true, false]) {
      const model = new ScriptedModel({
        turns: [{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
      });
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      await expect(
        chatToolLoop({
          model,
          stream,
          tools: createToolHost([echoTool]),
          messages,
          onEvent: (event) => {
            if (event.type === 'tool_result' || event.type === 'finish') throw new Error('UI bug');
          },
        }),
      ).rejects.toThrow('UI bug');
      expect(toolProtocolIssues(messages)).toEqual([]);
    }
  });

  it('returns an onEvent CairnError as its result even when the error event throws again', async () => {
    for (const stream of [true, false]) {
      const model = new ScriptedModel({
        turns: [{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
      });
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      const seen: string[] = [];
      const result = await chatToolLoop({
        model,
        stream,
        tools: createToolHost([echoTool]),
        messages,
        onEvent: (event) => {
          seen.push(event.type);
          if (event.type === 'tool_result' || event.type === 'error')
            throw new CairnError('STORE_UNAVAILABLE', 'the event log is down');
        },
      });
      expect(result.success).toBe(false);
      expect(result.error?.code).toBe('STORE_UNAVAILABLE');
      expect(seen.at(-1)).toBe('error');
      expect(toolProtocolIssues(messages)).toEqual([]);
    }
  });

  it('reports a stream that throws before its first event as an error event', async () => {
    const events: AgentOutput[] = [];
    const model: ModelAdapter = {
      ...modelAnswering({ role: 'assistant', content: 'x' }),
      capabilities: { streaming: true, toolCalls: true, parallelToolCalls: true, reasoning: false },
      stream() {
        throw new CairnError('LLM_BAD_REQUEST', 'bad request');
      },
    };
    const ends: string[] = [];
    const result = await chatToolLoop({
      model,
      messages: [{ role: 'user', content: 'go' }],
      onEvent: (event) => void events.push(event),
      onTurnStart: ({ turn }) => void ends.push(`start ${turn}`),
      onTurnEnd: ({ turn, finishReason }) => void ends.push(`end ${turn} ${finishReason}`),
    });
    expect(result.error?.code).toBe('LLM_BAD_REQUEST');
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'LLM_BAD_REQUEST' })]);
    expect(ends).toEqual(['start 1', 'end 1 error']);
  });

  it('gives repeated call ids of one message ids of their own', async () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const result = await chatToolLoop({
      model: modelAnswering({
        role: 'assistant',
        content: null,
        tool_calls: [call('dup'), call('dup'), call('dup')],
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

describe('createToolHost edge cases', () => {
  const options = () => ({ signal: new AbortController().signal });

  it('refuses (never fails) a call whose approval could not be asked', async () => {
    const tool = defineTool({
      name: 'deploy',
      description: 'Deploys',
      category: 'shell',
      input: z.object({}),
      needsApproval: true,
      execute: () => 'deployed',
    });
    const result = await createToolHost([tool]).execute(call('a', 'deploy', {}), {
      ...options(),
      approve: () => {
        throw new Error('approval UI disconnected');
      },
    });
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
    expect(result.content).toMatch(/was not run: asking for approval failed \(approval UI disconnected\)/);
  });

  it('keeps a success when toModelOutput throws, and writes BigInts and cycles', async () => {
    const cyclic: Record<string, unknown> = { big: 10n };
    cyclic.self = cyclic;
    const tool = defineTool({
      name: 'odd',
      description: 'Odd output',
      category: 'test',
      input: z.object({}),
      execute: () => cyclic,
      toModelOutput: () => {
        throw new Error('render bug');
      },
    });
    const result = await createToolHost([tool]).execute(call('a', 'odd', {}), options());
    expect(result).toMatchObject({
      isError: false,
      content: '{"big":"10","self":"[Circular]"}',
      structured: cyclic,
    });
  });

  it('answers every call of a cancelled turn as interrupted, even a bad one', async () => {
    const controller = new AbortController();
    controller.abort();
    const host = createToolHost([echoTool]);
    for (const bad of [call('a', 'nope', {}), call('b', 'echo', { words: 1 })]) {
      expect(await host.execute(bad, { signal: controller.signal })).toMatchObject({ interrupted: true });
    }
  });
});
