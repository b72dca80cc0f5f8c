import { CairnError, type ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
import { PUBLISHING, runModel } from './runs-fixtures.js';

// Defects a review found, each shown here.

const longHistory = (store: ConversationStore, id: string, messages: number, words: number) =>
  store.append(
    id,
    Array.from({ length: messages }, (_, index) => ({
      id: `${id}-${index}`,
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      createdAt: new Date().toISOString(),
      content: `${index} ${'lorem ipsum '.repeat(words)}`,
    })),
  );

describe('runtime review fixes', () => {
  it('lets only one of two runtimes start the same run: the second gets STORE_CONFLICT, nothing is written twice', async () => {
    const store = createMemoryConversationStore();
    const make = () =>
      createAgentRuntime({
        store,
        model: runModel([{ text: 'Drafting.' }]).model,
        workflows: [PUBLISHING],
        settings: { compression: false },
      });
    const results = await Promise.allSettled([
      make().runs.start({ workflow: 'publishing/article', runId: 'job1', input: 'A' }),
      make().runs.start({ workflow: 'publishing/article', runId: 'job1', input: 'B' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const log = await store.load('run-job1');
    expect(log.filter((message) => message.partType === 'run_workflow')).toHaveLength(1);
    // The input is stored with the run's first records: a crash right after start cannot lose it.
    expect(log.slice(0, 3).map((message) => message.partType ?? message.role)).toEqual([
      'run_workflow',
      'run_state',
      'user',
    ]);
  });

  it('never lets a tool policy hide or refuse the run’s own step tool', async () => {
    const store = createMemoryConversationStore();
    const { model, turnRequests } = runModel([
      { toolCalls: [{ name: 'complete_step', arguments: {} }] },
      { text: 'Drafted.' },
    ]);
    const runtime = createAgentRuntime({
      store,
      model,
      workflows: [PUBLISHING],
      settings: { compression: false, toolPolicy: { allow: { categories: ['fs'] } } },
    });
    const started = await runtime.runs.start({ workflow: 'publishing/article' });
    expect(turnRequests()[0]?.tools?.map((tool) => tool.name)).toEqual(['read_tool_output', 'complete_step']);
    expect(started.state).toMatchObject({ currentNodeId: 'review', stepsCompleted: ['draft'] });
  });

  it('keeps one conversation’s failed compression from holding back another’s', async () => {
    const store = createMemoryConversationStore();
    await longHistory(store, 'big', 4, 800);
    await longHistory(store, 'small', 12, 60);
    const model = new ScriptedModel({ turns: () => ({ text: 'ok' }) });
    const runtime = createAgentRuntime({
      store,
      model,
      settings: { compression: { tokenBudget: 1_200, minRecentMessages: 4, summarize: false } },
    });
    const compressed: string[] = [];
    const onEvent = (event: { type: string; event?: string; conversationId?: string }) => {
      if (event.type === 'runtime' && event.event === 'compression_applied')
        compressed.push(event.conversationId as string);
    };
    await runtime.chat({ conversationId: 'big', userInput: 'x', onEvent });
    await runtime.chat({ conversationId: 'small', userInput: 'y', onEvent });
    expect(compressed).toEqual(['big', 'small']);
  });

  it('does not fail a turn when an event listener throws', async () => {
    const store = createMemoryConversationStore();
    const runtime = createAgentRuntime({
      store,
      model: new ScriptedModel({ turns: [{ text: 'Hello.' }] }),
      settings: { compression: false },
    });
    const result = await runtime.chat({
      userInput: 'Hi',
      onEvent: () => {
        throw new Error('socket closed');
      },
    });
    expect(result).toMatchObject({ success: true, message: { content: 'Hello.' } });
  });

  it('tries a briefly unavailable store again, without storing anything twice', async () => {
    const store = createMemoryConversationStore();
    let failures = 1;
    const flaky: ConversationStore = new Proxy(store, {
      get(target, property) {
        if (property === 'append') {
          return async (...args: Parameters<ConversationStore['append']>) => {
            const result = await target.append(...args);
            // The write landed, the answer was lost: the retry must find it by its key.
            if (failures-- > 0) throw new CairnError('STORE_UNAVAILABLE', 'connection reset');
            return result;
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runtime = createAgentRuntime({
      store: flaky,
      model: new ScriptedModel({ turns: [{ text: 'Hello.' }] }),
      settings: { compression: false },
    });
    const result = await runtime.chat({ conversationId: 'c', userInput: 'Hi' });
    expect(result.success).toBe(true);
    expect((await store.load('c')).map((message) => message.content)).toEqual(['Hi', 'Hello.']);
  });

  it('checks a chat call before writing anything, and writes nothing for a turn cancelled in the queue', async () => {
    const store = createMemoryConversationStore();
    const runtime = createAgentRuntime({
      store,
      model: new ScriptedModel({ turns: [] }),
      settings: { compression: false },
    });
    const refused = expect.objectContaining({ code: expect.stringMatching(/INVALID_ARGUMENT|INVALID_ID/) });
    await expect(runtime.chat({ conversationId: 'c', userInput: 'x', mode: 'run' as never })).rejects.toEqual(
      refused,
    );
    await expect(runtime.chat({ conversationId: 'c', userInput: 'x', agent: { id: '' } })).rejects.toEqual(
      refused,
    );
    await expect(
      runtime.chat({ conversationId: 'c', userInput: 'x', extraUserMessages: [42 as never] }),
    ).rejects.toEqual(refused);
    const controller = new AbortController();
    controller.abort();
    const cancelled = await runtime.chat({ conversationId: 'c', userInput: 'x', signal: controller.signal });
    expect(cancelled).toMatchObject({
      success: false,
      finishReason: 'aborted',
      error: { code: 'LLM_ABORTED' },
    });
    expect(await store.load('c')).toEqual([]);
  });
});

describe('runtime token calibration', () => {
  it('corrects its estimate with the input tokens the provider reported on the conversation’s earlier turns', async () => {
    const store = createMemoryConversationStore();
    // The provider counts 90,000 input tokens (its system prompt and tool schemas the estimate cannot see).
    const model = new ScriptedModel({
      provider: 'anthropic',
      turns: () => ({ text: 'ok', usage: { inputTokens: 90_000, outputTokens: 5 } }),
    });
    const runtime = createAgentRuntime({
      store,
      model,
      settings: { compression: { tokenBudget: 100_000, summarize: false } },
    });
    const compressedIn: string[] = [];
    const onEvent = (event: { type: string; event?: string; conversationId?: string }) => {
      if (event.type === 'runtime' && event.event === 'compression_applied')
        compressedIn.push(event.conversationId as string);
    };
    await runtime.chat({ conversationId: 'a', userInput: 'Hi', onEvent });
    expect(compressedIn).toEqual([]);
    // The same conversation now counts as over 80% of the budget; a new one does not.
    await runtime.chat({ conversationId: 'a', userInput: 'Again', onEvent });
    await runtime.chat({ conversationId: 'b', userInput: 'Hi', onEvent });
    expect(compressedIn).toEqual(['a']);
  });
});
