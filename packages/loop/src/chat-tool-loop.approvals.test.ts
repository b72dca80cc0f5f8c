import { type ModelMessage, toolProtocolIssues } from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { echoTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import type { LoopToolMessage } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

const guarded = defineTool({
  name: 'guarded',
  description: 'Needs a decision',
  category: 'shell',
  input: z.object({}),
  needsApproval: true,
  execute: () => 'guarded ran',
});

describe('chatToolLoop with calls waiting for a decision', () => {
  it('runs the calls that need none, then ends the loop waiting, without another model call', async () => {
    for (const stream of [true, false]) {
      const model = new ScriptedModel({
        turns: [
          {
            toolCalls: [
              { id: 'a', name: 'guarded', arguments: {} },
              { id: 'b', name: 'echo', arguments: { text: 'x' } },
            ],
          },
          { text: 'never asked' },
        ],
      });
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      const stored: LoopToolMessage[] = [];
      const result = await chatToolLoop({
        model,
        stream,
        tools: createToolHost([guarded, echoTool]),
        messages,
        approve: () => 'pending',
        onToolMessage: (message) => {
          stored.push(message);
        },
      });
      expect(result.success).toBe(true);
      expect(result.success && result.waiting?.map((call) => call.id)).toEqual(['a']);
      expect(result.finishReason).toBe('tool_calls');
      expect(model.requests).toHaveLength(1);
      // The call that needed no decision ran and was stored; the waiting one has no result at all.
      expect(stored.map((message) => message.tool_call_id)).toEqual(['b']);
      expect(messages.filter((message) => message.role === 'tool')).toHaveLength(1);
      expect(toolProtocolIssues(messages)).not.toEqual([]);
    }
  });

  it('has no waiting calls when every call was answered', async () => {
    const model = new ScriptedModel({
      turns: [{ toolCalls: [{ id: 'a', name: 'guarded', arguments: {} }] }, { text: 'done' }],
    });
    const result = await chatToolLoop({
      model,
      tools: createToolHost([guarded]),
      messages: [{ role: 'user', content: 'go' }],
      approve: () => true,
    });
    expect(result.success && 'waiting' in result).toBe(false);
    expect(result.text).toBe('done');
  });
});
