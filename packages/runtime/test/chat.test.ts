import { DEFAULT_MODE_PROFILES } from '@cairn/context-builder';
import type {
  AgentOutput,
  ConversationMessage,
  ConversationStore,
  ModelAdapter,
  ModelRequest,
} from '@cairn/core';
import { createToolHost } from '@cairn/loop';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime, type RuntimeEvent, type RuntimeSettings } from '../src/index.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';
import { weatherTool } from './weather-tool.js';

const tools = createToolHost([weatherTool]);

/** A ScriptedModel answering with `generate` (no streaming), recording the store as each request arrives. */
function probingModel(
  turns: ScriptTurn[],
  store: () => ConversationStore,
  conversation: () => string,
  provider = 'scripted',
) {
  const inner = new ScriptedModel({ turns, provider, capabilities: { streaming: false } });
  const storedAtRequest: ConversationMessage[][] = [];
  const model: ModelAdapter = {
    provider,
    modelId: inner.modelId,
    capabilities: inner.capabilities,
    async generate(request: ModelRequest) {
      storedAtRequest.push(await store().load(conversation()));
      return inner.generate(request);
    },
    stream: (request) => inner.stream(request),
  };
  return { model, inner, storedAtRequest };
}

describe.each(STORE_BACKENDS)('runtime chat on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('stores the user message before the model call, then each message as it happens; history feeds the next turn', async () => {
    const store = open();
    let conversationId = '';
    const { model, inner, storedAtRequest } = probingModel(
      [
        { text: 'Checking.', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { text: 'It is -3 °C in Oslo.' },
        { text: 'Yes, still cold.' },
      ],
      () => store,
      () => conversationId,
    );
    const runtime = createAgentRuntime({ store, model, tools, settings: { compression: false } });
    const events: (AgentOutput | RuntimeEvent)[] = [];
    const first = await runtime.chat({
      userInput: 'Weather in Oslo?',
      mode: 'agent',
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'runtime' && event.event === 'message_persisted')
          conversationId = event.conversationId;
      },
    });
    expect(first).toMatchObject({
      success: true,
      turns: 2,
      message: { role: 'assistant', content: 'It is -3 °C in Oslo.' },
      text: 'It is -3 °C in Oslo.',
    });
    conversationId = first.conversationId;
    // The user's message was in the store before the model saw the request.
    expect(storedAtRequest[0]?.map((message) => message.role)).toEqual(['user']);
    const log = await store.load(first.conversationId);
    expect(log.map((message) => [message.role, message.partType ?? ''])).toEqual([
      ['user', ''],
      ['assistant', 'tool_call'],
      ['tool', 'tool_result'],
      ['assistant', ''],
    ]);
    expect(log.every((message) => message.mode === 'agent')).toBe(true);
    expect(log[2]).toMatchObject({
      tool_call_id: 'c1',
      content: 'Oslo: -3 °C',
      toolName: 'get_weather',
      isError: false,
    });
    expect(events.filter((event) => event.type === 'runtime').length).toBe(4);

    const second = await runtime.chat({ conversationId: first.conversationId, userInput: 'Still cold?' });
    expect(second.success).toBe(true);
    // The stored history is in the request: nothing is kept in memory between turns.
    const request = inner.requests[2]?.messages ?? [];
    expect(request.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });

  it('edits and regenerates as branches: the replaced turns stay stored, out of the context; each answer keeps its usage', async () => {
    const store = open();
    const inner = new ScriptedModel({
      turns: [
        { text: 'Paris.', usage: { inputTokens: 11, outputTokens: 2 } },
        { text: 'Berlin.' },
        { text: 'Rome.' },
        { text: 'Roma, again.' },
      ],
    });
    const runtime = createAgentRuntime({ store, model: inner, settings: { compression: false } });
    const { conversationId } = await runtime.chat({ userInput: 'Capital of France?' });
    await runtime.chat({ conversationId, userInput: 'And Germany?' });
    // Edit-and-resend of the second question (seq 3), then a regeneration of its answer.
    await runtime.chat({ conversationId, userInput: 'And Italy?', branchFrom: 3 });
    await runtime.chat({ conversationId, userInput: 'And Italy?', branchFrom: 5 });
    const log = await store.load(conversationId);
    expect(log.map((message) => [message.seq, message.branchFrom, message.content])).toEqual([
      [1, undefined, 'Capital of France?'],
      [2, undefined, 'Paris.'],
      [3, undefined, 'And Germany?'],
      [4, undefined, 'Berlin.'],
      [5, 3, 'And Italy?'],
      [6, undefined, 'Rome.'],
      [7, 5, 'And Italy?'],
      [8, undefined, 'Roma, again.'],
    ]);
    expect(log[1]?.usage).toMatchObject({ inputTokens: 11, outputTokens: 2 });
    // The model saw each branch as the whole conversation.
    const sent = (index: number) =>
      (inner.requests[index]?.messages ?? []).slice(1).map((message) => message.content);
    expect(sent(2)).toEqual(['Capital of France?', 'Paris.', 'And Italy?']);
    expect(sent(3)).toEqual(['Capital of France?', 'Paris.', 'And Italy?']);
    // A branch replaces a user message of the conversation as it stands, or nothing is stored.
    for (const branchFrom of [4, 3, 99]) {
      await expect(runtime.chat({ conversationId, userInput: 'x', branchFrom })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
    await expect(runtime.chat({ conversationId, userInput: 'x', branchFrom: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await store.load(conversationId)).toHaveLength(8);
  });

  it('stores a failure as an assistant message, and "continue" resumes from the stored history', async () => {
    const store = open();
    const model = new ScriptedModel({
      turns: [{ fault: { status: 401 } }, { text: 'Continuing where we left off.' }],
    });
    const runtime = createAgentRuntime({ store, model, settings: { compression: false } });
    const failed = await runtime.chat({ userInput: 'Summarise the report.' });
    expect(failed).toMatchObject({
      success: false,
      error: { code: 'LLM_AUTH' },
      message: { partType: 'error', errorCode: 'LLM_AUTH' },
      // The model said nothing: the error is `message` and `error`, not text.
      text: '',
    });
    const resumed = await runtime.chat({ conversationId: failed.conversationId, userInput: 'continue' });
    expect(resumed.success).toBe(true);
    const request = model.requests[1]?.messages ?? [];
    expect(request.slice(1).map((message) => [message.role, message.content])).toEqual([
      ['user', 'Summarise the report.'],
      ['assistant', expect.stringContaining('LLM_AUTH')],
      ['user', 'continue'],
    ]);
  });

  it('keeps the answer streamed before an abort, marked interrupted, and the next turn’s model sees it', async () => {
    const store = open();
    const model = new ScriptedModel({
      turns: [
        { text: 'The report covers three regions', chunkSize: 4, chunkDelayMs: 20 },
        { text: 'and their sales.' },
      ],
    });
    const runtime = createAgentRuntime({ store, model, settings: { compression: false } });
    const controller = new AbortController();
    let shown = '';
    const aborted = await runtime.chat({
      userInput: 'Summarise the report.',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type !== 'text_delta') return;
        shown += event.delta;
        if (shown.length >= 12) controller.abort();
      },
    });
    expect(aborted).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    expect(shown).toBe('The report c');
    expect(aborted.text).toBe(shown);
    const stored = await store.load(aborted.conversationId);
    // The error is shown but not sent: two assistant messages in a row would break role alternation.
    const fields = ['role', 'content', 'interrupted', 'errorCode', 'includeInContext'] as const;
    expect(stored.map((message) => fields.map((field) => message[field]))).toEqual([
      ['user', 'Summarise the report.', undefined, undefined, undefined],
      ['assistant', shown, true, undefined, undefined],
      ['assistant', expect.stringContaining('aborted'), undefined, 'LLM_ABORTED', false],
    ]);
    await runtime.chat({ conversationId: aborted.conversationId, userInput: 'continue' });
    const request = model.requests[1]?.messages ?? [];
    expect(request.slice(1).map((message) => [message.role, message.content])).toEqual([
      ['user', 'Summarise the report.'],
      [
        'assistant',
        `${shown}\n\n[This reply was cut off here: the turn was interrupted before it was finished]`,
      ],
      ['user', 'continue'],
    ]);
  });

  it('after a process died mid-turn, the next message settles the call left without a result and continues, on a fresh runtime and store', async () => {
    const store = open();
    const createdAt = new Date().toISOString();
    // What a killed process leaves: the call stored, its result never.
    await store.append('conv-crashed', [
      { id: 'u1', role: 'user', createdAt, content: 'Weather in Oslo?', mode: 'agent' },
      {
        id: 'a1',
        role: 'assistant',
        createdAt,
        content: null,
        partType: 'tool_call',
        mode: 'agent',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
    ]);
    const reopened = open();
    const model = new ScriptedModel({
      turns: [{ text: 'The last check was interrupted; let me answer anyway.' }],
    });
    const result = await createAgentRuntime({
      store: reopened,
      model,
      tools,
      settings: { compression: false },
    }).chat({
      conversationId: 'conv-crashed',
      userInput: 'continue',
      mode: 'agent',
    });
    expect(result.success).toBe(true);
    const request = model.requests[0]?.messages ?? [];
    expect(request.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    // The call never started (no intent): nothing runs before the new message, and the log says so.
    expect(request[3]).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'get_weather was not run: a new message came before it ran.',
    });
    const log = await reopened.load('conv-crashed');
    expect(log.map((message) => message.id).slice(0, 3)).toEqual(['u1', 'a1', 'a1.r0']);
    expect(log[2]).toMatchObject({ role: 'tool', isError: true, tool_call_id: 'c1' });
  });

  it('compresses a history over the trigger, stores the summary as a compaction record, and reuses it', async () => {
    const store = open();
    const createdAt = new Date().toISOString();
    const old = Array.from(
      { length: 30 },
      (_, index): ConversationMessage => ({
        id: `old-${index}`,
        role: index % 2 === 0 ? 'user' : 'assistant',
        createdAt,
        content: `message ${index} ${'lorem ipsum dolor sit amet '.repeat(40)}`,
      }),
    );
    await store.append('conv-long', old);
    const model = new ScriptedModel({
      turns: [
        { text: 'They talked about lorem ipsum at length.' },
        { text: 'Answer.' },
        { text: 'Answer again.' },
      ],
    });
    const events: RuntimeEvent[] = [];
    const runtime = createAgentRuntime({
      store,
      model,
      settings: { compression: { tokenBudget: 4_000, minRecentMessages: 4 } },
    });
    const result = await runtime.chat({
      conversationId: 'conv-long',
      userInput: 'And now?',
      onEvent: (event) => {
        if (event.type === 'runtime') events.push(event);
      },
    });
    expect(result.success).toBe(true);
    expect(events.find((event) => event.event === 'compression_applied')).toMatchObject({ compressed: true });
    const log = await store.load('conv-long');
    const record = log.find((message) => message.partType === 'compaction');
    expect(record).toMatchObject({
      role: 'system',
      content: 'They talked about lorem ipsum at length.',
      compaction: { fromSeq: 1 },
    });
    // The model's request had the summary in place of the old messages.
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('They talked about lorem ipsum at length.');
    // The next turn sends the stored summary and summarises nothing again (one summary turn used).
    const next = await runtime.chat({ conversationId: 'conv-long', userInput: 'More?' });
    expect(next.success).toBe(true);
    expect(model.requests).toHaveLength(3);
    expect(
      model.requests[2]?.messages.some(
        (message) => message.role === 'user' && String(message.content).includes('They talked about'),
      ),
    ).toBe(true);
  });
});

describe('runtime chat', () => {
  it('runs turns on one conversation one at a time, in call order', async () => {
    const { createMemoryConversationStore } = await import('@cairn/storage');
    const store = createMemoryConversationStore();
    const model = new ScriptedModel({ turns: [{ text: 'first', delayMs: 30 }, { text: 'second' }] });
    const runtime = createAgentRuntime({ store, model, settings: { compression: false } });
    const [a, b] = await Promise.all([
      runtime.chat({ conversationId: 'c', userInput: 'one' }),
      runtime.chat({ conversationId: 'c', userInput: 'two' }),
    ]);
    expect([a.success, b.success]).toEqual([true, true]);
    expect((await store.load('c')).map((message) => message.content)).toEqual([
      'one',
      'first',
      'two',
      'second',
    ]);
  });

  it('continues a conversation on another provider without sending it the first one’s metadata', async () => {
    const { createMemoryConversationStore } = await import('@cairn/storage');
    const store = createMemoryConversationStore();
    const createdAt = new Date().toISOString();
    // A turn answered by Anthropic: a signed thinking block and a response id, kept for replay.
    await store.append('c', [
      { id: 'u1', role: 'user', createdAt, content: 'Hi' },
      {
        id: 'a1',
        role: 'assistant',
        createdAt,
        content: 'Hello from Claude.',
        reasoning: [{ text: 'Greet back.', providerMetadata: { anthropic: { signature: 'sig-123' } } }],
        providerMetadata: { anthropic: { responseId: 'msg_1' } },
      },
    ]);
    const gemini = new ScriptedModel({ provider: 'gemini', turns: [{ text: 'Hello from Gemini.' }] });
    const anthropic = new ScriptedModel({ provider: 'anthropic', turns: [{ text: 'Back to Claude.' }] });
    const runtime = createAgentRuntime({ store, model: gemini, settings: { compression: false } });
    expect((await runtime.chat({ conversationId: 'c', userInput: 'And you?' })).success).toBe(true);
    const sent = gemini.requests[0]?.messages ?? [];
    expect(sent.map((message) => message.content)).toEqual([
      expect.any(String),
      'Hi',
      'Hello from Claude.',
      'And you?',
    ]);
    expect(JSON.stringify(sent)).not.toMatch(/anthropic|sig-123|Greet back/);
    // Back on Anthropic, its own signed thinking is replayed.
    expect((await runtime.chat({ conversationId: 'c', userInput: 'Again', model: anthropic })).success).toBe(
      true,
    );
    expect(JSON.stringify(anthropic.requests[0]?.messages)).toContain('sig-123');
  });

  it('sends the mode text in the system prompt unless modePrompt is false; modeProfiles replace it', async () => {
    const { createMemoryConversationStore } = await import('@cairn/storage');
    const systemPrompt = async (settings: RuntimeSettings, mode: 'chat' | 'agent') => {
      const model = new ScriptedModel({ turns: [{ text: 'Hi.' }] });
      const agent = { name: 'Ada', systemPrompt: 'Answer in one line.' };
      await createAgentRuntime({
        store: createMemoryConversationStore(),
        model,
        settings: { compression: false, ...settings },
      }).chat({
        userInput: 'Hello',
        mode,
        agent,
      });
      const first = model.requests[0]?.messages[0];
      return first?.role === 'system' ? first.content : undefined;
    };
    expect(await systemPrompt({}, 'chat')).toContain(DEFAULT_MODE_PROFILES.chat);
    for (const mode of ['chat', 'agent'] as const) {
      const without = await systemPrompt({ modePrompt: false }, mode);
      expect(without).toContain('Answer in one line.');
      expect(without).not.toContain('Mode:');
    }
    const replaced = await systemPrompt({ modeProfiles: { chat: 'Be brief.' } }, 'chat');
    expect(replaced).toContain('Be brief.');
    expect(replaced).not.toContain('Mode:');
  });

  it('refuses an unsafe conversation id and an empty input', async () => {
    const { createMemoryConversationStore } = await import('@cairn/storage');
    const runtime = createAgentRuntime({
      store: createMemoryConversationStore(),
      model: new ScriptedModel({ turns: [] }),
    });
    await expect(runtime.chat({ conversationId: '../etc', userInput: 'x' })).rejects.toMatchObject({
      code: 'INVALID_ID',
    });
    await expect(runtime.chat({ userInput: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
