import { CairnError, type ModelMessage, toolProtocolIssues } from '@cairn/core';
import { simulatedDelay } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelAnswering, toolCall } from '../test/loop-test-models.js';
import { chatToolLoop } from './chat-tool-loop.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

describe('chatToolLoop with a failing persister', () => {
  it('after a failing persister, starts no further call and pushes nothing once it has returned', async () => {
    const started: string[] = [];
    const slow = defineTool({
      name: 'slow_echo',
      description: 'Echoes slowly',
      category: 'test',
      input: z.object({ text: z.string() }),
      async execute({ text }, { signal }) {
        started.push(text);
        await simulatedDelay(text === 'a' ? 5 : 50, signal);
        return text;
      },
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const handed: string[] = [];
    const result = await chatToolLoop({
      model: modelAnswering({
        role: 'assistant',
        content: null,
        tool_calls: ['a', 'b', 'c', 'd'].map((id) => toolCall(id, 'slow_echo')),
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
    // Every started call has settled by the time the loop returns: one more turn of the event loop
    // lets anything still queued run, and nothing may push then.
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual(settled);
    expect(started).toEqual(['a', 'b']);
    expect(toolProtocolIssues(messages)).toEqual([]);
    expect(messages.filter((message) => message.role === 'tool')).toHaveLength(4);
  });
});
