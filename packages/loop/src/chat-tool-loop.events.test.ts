import {
  type AgentOutput,
  CairnError,
  type ModelAdapter,
  type ModelMessage,
  toolProtocolIssues,
} from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { modelAnswering } from '../test/loop-test-models.js';
import { echoTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import { createToolHost } from './create-tool-host.js';

// What the loop does when the `onEvent` listener or the stream it reports on fails.

describe('chatToolLoop events', () => {
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
});
