import { CairnError, type ModelMessage, toolProtocolIssues } from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { echoTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import { createToolHost } from './create-tool-host.js';

const twoTurns = () =>
  new ScriptedModel({
    turns: [{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
  });

describe('chatToolLoop prepareMessages', () => {
  it('sends what it returns on every model call and leaves the history as it was', async () => {
    const model = twoTurns();
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const seen: number[] = [];
    const result = await chatToolLoop({
      model,
      tools: createToolHost([echoTool]),
      messages,
      prepareMessages: (request) => {
        seen.push(request.length);
        return request.map((message) =>
          message.role === 'user' ? { ...message, content: 'go (prepared)' } : message,
        );
      },
    });
    expect(result.success).toBe(true);
    expect(seen).toEqual([1, 3]);
    expect(model.requests.map((request) => request.messages[0]?.content)).toEqual([
      'go (prepared)',
      'go (prepared)',
    ]);
    expect(messages[0]).toEqual({ role: 'user', content: 'go' });
  });

  it('ends the loop with the CairnError it throws, the log complete and the model not called', async () => {
    for (const stream of [true, false]) {
      const model = twoTurns();
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      const errors: string[] = [];
      let calls = 0;
      const result = await chatToolLoop({
        model,
        stream,
        tools: createToolHost([echoTool]),
        messages,
        prepareMessages: (request) => {
          if (++calls === 2) throw new CairnError('STORE_NOT_FOUND', 'the image is gone');
          return request;
        },
        onEvent: (event) => {
          if (event.type === 'error') errors.push(event.code);
        },
      });
      expect(result).toMatchObject({ success: false, turns: 2, finishReason: 'error' });
      expect(result.error?.code).toBe('STORE_NOT_FOUND');
      expect(errors).toEqual(['STORE_NOT_FOUND']);
      expect(model.requests).toHaveLength(1);
      expect(toolProtocolIssues(messages)).toEqual([]);
    }
  });

  it('rethrows anything else it throws: a bug of the caller', async () => {
    await expect(
      chatToolLoop({
        model: twoTurns(),
        messages: [{ role: 'user', content: 'go' }],
        prepareMessages: () => {
          throw new TypeError('oops');
        },
      }),
    ).rejects.toThrow('oops');
  });
});
