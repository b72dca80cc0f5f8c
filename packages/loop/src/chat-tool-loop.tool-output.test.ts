import { buildLlmMessagesFromConversation } from '@cairn/context-builder';
import {
  type ConversationMessage,
  contentText,
  DEFAULT_MAX_TOOL_RESULT_CHARS,
  fullOutputMarker,
  type ModelMessage,
  TOOL_OUTPUT_PREVIEW_LENGTH,
} from '@cairn/core';
import { createMemoryConversationStore, readFullToolOutput } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatToolLoop } from './chat-tool-loop.js';
import type { LoopAssistantMessage, LoopToolMessage } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

// Issue V item 5: a 1.5 MB output, offloaded in the store, was sent whole in the next request of the
// same turn (which a 128k-token model refuses); only the next turn, rebuilt from the store, got the
// preview. Both must send the same bounded text.

const HUGE = `BEGIN ${'log line\n'.repeat(170_000)} END`;

const dumpTool = defineTool({
  name: 'dump_log',
  description: 'Returns the whole build log',
  category: 'read',
  input: z.object({}),
  execute: () => HUGE,
});

const host = createToolHost([dumpTool]);
const conversationId = 'conv-1';
const createdAt = '2026-02-01T10:00:00.000Z';

const scriptedTurn = () =>
  new ScriptedModel({
    turns: [
      { toolCalls: [{ id: 'call-1', name: 'dump_log', arguments: {} }] },
      { text: 'The build passed.' },
    ],
  });

// What a persister keeps of the loop's messages (the runtime's full version is in @cairn/runtime).
const storedAssistant = (message: LoopAssistantMessage): ConversationMessage => ({
  id: message.id,
  role: 'assistant',
  createdAt: message.createdAt,
  content: message.content ?? null,
  ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}),
});
const storedTool = (message: LoopToolMessage): ConversationMessage => ({
  id: message.id,
  role: 'tool',
  createdAt: message.createdAt,
  tool_call_id: message.tool_call_id,
  content: message.content,
  toolName: message.toolName,
  isError: message.isError,
});

const lastTool = (messages: readonly ModelMessage[]) =>
  messages.findLast((message) => message.role === 'tool');

describe('chatToolLoop: what the model reads of a big tool output', () => {
  it('sends an output the store offloaded as the next turn will: the stored preview and reference', async () => {
    const store = createMemoryConversationStore();
    await store.append(conversationId, [
      { id: 'user-1', role: 'user', createdAt, content: 'Did the build pass?' },
    ]);
    const context = buildLlmMessagesFromConversation({
      messages: await store.load(conversationId),
      mode: 'agent',
    });
    const model = scriptedTurn();
    const persist = async (message: ConversationMessage) => {
      const { messages } = await store.append(conversationId, [message]);
      return messages[0] as ConversationMessage;
    };

    const result = await chatToolLoop({
      model,
      tools: host,
      messages: context.messages,
      onAssistantMessage: async (message) => void (await persist(storedAssistant(message))),
      onToolMessage: (message) => persist(storedTool(message)),
    });
    expect(result.success).toBe(true);

    const log = await store.load(conversationId);
    const stored = log.find((message) => message.role === 'tool') as ConversationMessage;
    expect(stored.fullOutputPath).toBeDefined();
    // Nothing is lost: the store has the whole output.
    expect(await readFullToolOutput(store, stored)).toBe(HUGE);

    // The second request of the turn: the preview and reference, not 1.5 MB.
    const sent = model.requests[1]?.messages ?? [];
    expect(JSON.stringify(sent).length).toBeLessThan(5_000);
    expect(lastTool(sent)).toEqual({
      role: 'tool',
      tool_call_id: 'call-1',
      content: HUGE.slice(0, TOOL_OUTPUT_PREVIEW_LENGTH) + fullOutputMarker(stored.fullOutputPath as string),
    });
    // Exactly what the next turn builds from the stored log.
    const next = buildLlmMessagesFromConversation({ messages: log, mode: 'agent' });
    expect(lastTool(sent)).toEqual(lastTool(next.messages));
    expect(sent).toEqual(next.messages.slice(0, -1));
    expect(result.messages).toEqual(next.messages);
  });

  it('bounds an output it has no stored form of to maxToolResultChars, with a note', async () => {
    const model = scriptedTurn();
    const handed: unknown[] = [];
    const result = await chatToolLoop({
      model,
      tools: host,
      messages: [{ role: 'user', content: 'Did the build pass?' }],
      maxToolResultChars: 2_000,
      // A persister that returns nothing: the loop still bounds what it sends.
      onToolMessage: (message) => void handed.push(message.content),
    });
    expect(result.success).toBe(true);
    // The callback gets the whole output, to store.
    expect(handed).toEqual([HUGE]);
    const content = contentText(lastTool(model.requests[1]?.messages ?? [])?.content);
    expect(content.length).toBeLessThanOrEqual(2_000);
    expect(content.startsWith('BEGIN log line')).toBe(true);
    expect(content).toContain(`characters are shown`);
    expect(content).not.toContain('END');
  });

  it('bounds by default, and sends everything only when told to', async () => {
    const bounded = scriptedTurn();
    await chatToolLoop({ model: bounded, tools: host, messages: [{ role: 'user', content: 'go' }] });
    const content = lastTool(bounded.requests[1]?.messages ?? [])?.content ?? '';
    expect(content.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_RESULT_CHARS);
    expect(content).toContain(`of ${HUGE.length} characters are shown`);

    const whole = scriptedTurn();
    await chatToolLoop({
      model: whole,
      tools: host,
      messages: [{ role: 'user', content: 'go' }],
      maxToolResultChars: Number.POSITIVE_INFINITY,
    });
    expect(lastTool(whole.requests[1]?.messages ?? [])?.content).toBe(HUGE);
  });

  it('refuses a maxToolResultChars that is not a positive integer before calling the model', async () => {
    const model = scriptedTurn();
    await expect(
      chatToolLoop({
        model,
        tools: host,
        messages: [{ role: 'user', content: 'go' }],
        maxToolResultChars: 0,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(model.requests).toHaveLength(0);
  });
});
