import {
  type ConversationMessage,
  compactionSummaryText,
  fullOutputMarker,
  TOOL_OUTPUT_PREVIEW_LENGTH,
  TOOL_OUTPUT_THRESHOLD,
  toolProtocolIssues,
} from '@cairn/core';
import { createMemoryConversationStore, readFullToolOutput } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { buildLlmMessagesFromConversation } from '../src/index.js';

// A chat's flow against a real store: persist as the conversation goes, load, build.

const CONVERSATION = 'conv-1';
let next = 0;
const message = (fields: Omit<ConversationMessage, 'id' | 'createdAt'>): ConversationMessage => ({
  id: `msg-${++next}`,
  createdAt: new Date().toISOString(),
  ...fields,
});

describe('with the in-memory store', () => {
  it('builds a stored conversation, an offloaded output sent as preview and reference', async () => {
    const store = createMemoryConversationStore();
    const bigOutput = `BEGIN ${'x'.repeat(TOOL_OUTPUT_THRESHOLD + 10_000)} END`;
    await store.append(CONVERSATION, [
      message({ role: 'user', content: 'Show me the build log', mode: 'agent' }),
    ]);
    await store.append(CONVERSATION, [
      message({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call-1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"build.log"}' },
          },
        ],
        partType: 'tool_call',
      }),
      message({
        role: 'tool',
        tool_call_id: 'call-1',
        content: bigOutput,
        partType: 'tool_result',
        toolName: 'read_file',
      }),
    ]);
    await store.append(CONVERSATION, [
      message({
        role: 'assistant',
        content: 'Provider overloaded',
        partType: 'error',
        errorCode: 'LLM_UNAVAILABLE',
      }),
      message({ role: 'user', content: 'continue' }),
    ]);

    const history = await store.load(CONVERSATION);
    const stored = history[2] as ConversationMessage;
    expect(stored.fullOutputPath).toBeDefined();
    const ref = stored.fullOutputPath as string;

    const built = buildLlmMessagesFromConversation({ messages: history, mode: 'agent' });
    expect(toolProtocolIssues(built.messages)).toEqual([]);
    expect(built.sourceSeqs).toEqual([undefined, 1, 2, 3, 4, 5]);
    const toolMessage = built.messages[3];
    expect(toolMessage).toEqual({
      role: 'tool',
      tool_call_id: 'call-1',
      content: bigOutput.slice(0, TOOL_OUTPUT_PREVIEW_LENGTH) + fullOutputMarker(ref),
    });
    expect(toolMessage?.content).not.toContain('END');
    // The reference the model reads is where the whole output is.
    expect(await readFullToolOutput(store, stored)).toBe(bigOutput);
    expect(built.messages.slice(4)).toEqual([
      { role: 'assistant', content: '[The previous request failed: Provider overloaded (LLM_UNAVAILABLE)]' },
      { role: 'user', content: 'continue' },
    ]);
    expect(built.stats.tokens).toBeLessThan(1_000);
  });

  it('sends a stored compaction record’s summary in place of its range', async () => {
    const store = createMemoryConversationStore();
    await store.append(CONVERSATION, [
      message({ role: 'user', content: 'one' }),
      message({ role: 'assistant', content: 'two' }),
      message({ role: 'user', content: 'three' }),
    ]);
    await store.append(CONVERSATION, [
      message({
        role: 'system',
        partType: 'compaction',
        content: 'They counted to two.',
        compaction: { fromSeq: 1, toSeq: 2, tokensBefore: 4, tokensAfter: 6 },
      }),
      message({ role: 'assistant', content: 'four' }),
    ]);

    const built = buildLlmMessagesFromConversation({
      messages: await store.load(CONVERSATION),
      mode: 'chat',
    });
    expect(built.messages.slice(1)).toEqual([
      { role: 'user', content: compactionSummaryText('They counted to two.') },
      { role: 'user', content: 'three' },
      { role: 'assistant', content: 'four' },
    ]);
    expect(built.sourceSeqs).toEqual([undefined, 1, 3, 5]);
    expect(built.stats).toMatchObject({ included: 3, compacted: 2, excluded: 0 });
  });
});
