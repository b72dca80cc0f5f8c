import { CairnError, ModelAssistantMessageSchema } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createResultAssembler } from './result-assembler.js';

describe('createResultAssembler', () => {
  it('builds the assistant message a non-streaming call reports', () => {
    const assembler = createResultAssembler();
    assembler.start({ responseId: 'msg_1', modelId: 'claude-x' });
    assembler.reasoningDelta('0', 'Think.');
    assembler.reasoningEnd('0', { providerMetadata: { anthropic: { signature: 'sig' } } });
    assembler.reasoningEnd('1', { redacted: true, providerMetadata: { anthropic: { data: 'enc' } } });
    assembler.textDelta('2', 'Hello');
    assembler.textDelta('2', ' there');
    assembler.toolCallStart('call_a', 'search');
    assembler.toolCallEnd('call_a', {
      arguments: '{"q":"x"}',
      providerMetadata: { gemini: { thoughtSignature: 't' } },
    });
    assembler.toolCallStart('call_b', 'now');
    assembler.toolCallEnd('call_b');
    assembler.usage({ inputTokens: 1, outputTokens: 1 });
    assembler.usage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    assembler.metadata({ anthropic: { container: 'c1' } });
    assembler.finish('tool_calls', 'tool_use');
    const result = assembler.complete();
    expect(result).toEqual({
      message: {
        role: 'assistant',
        content: 'Hello there',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
          { id: 'call_b', type: 'function', function: { name: 'now', arguments: '{}' } },
        ],
        reasoning: [
          { text: 'Think.', providerMetadata: { anthropic: { signature: 'sig' } } },
          { text: '', redacted: true, providerMetadata: { anthropic: { data: 'enc' } } },
        ],
        providerMetadata: { anthropic: { container: 'c1' }, gemini: { call_a: { thoughtSignature: 't' } } },
      },
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
      responseId: 'msg_1',
      modelId: 'claude-x',
    });
    expect(ModelAssistantMessageSchema.safeParse(result.message).success).toBe(true);
  });

  it('lets the tool calls decide between stop and tool_calls', () => {
    const withCalls = createResultAssembler();
    withCalls.toolCallStart('c', 'f');
    withCalls.finish('stop', 'STOP');
    expect(withCalls.complete()).toMatchObject({ finishReason: 'tool_calls', rawFinishReason: 'STOP' });
    const without = createResultAssembler();
    without.textDelta('0', 'hi');
    without.finish('tool_calls');
    expect(without.complete().finishReason).toBe('stop');
  });

  it('gives null content beside tool calls and empty content for an empty reply', () => {
    const calls = createResultAssembler();
    calls.toolCallStart('c', 'f');
    calls.finish('tool_calls');
    expect(calls.complete().message.content).toBeNull();
    const empty = createResultAssembler();
    empty.finish('length');
    const result = empty.complete();
    expect(result.message).toEqual({ role: 'assistant', content: '' });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it('rejects a response without finish reason and misordered tool calls', () => {
    expect(() => createResultAssembler().complete()).toThrow(
      expect.objectContaining({ code: 'LLM_BAD_RESPONSE' }),
    );
    const assembler = createResultAssembler();
    expect(() => assembler.toolInputDelta('nope', '{')).toThrow(CairnError);
    assembler.toolCallStart('c', 'f');
    expect(() => assembler.toolCallStart('c', 'f')).toThrow(CairnError);
    assembler.toolCallEnd('c');
    expect(() => assembler.toolCallEnd('c')).toThrow(CairnError);
  });

  it('ignores sink calls after the call ended', () => {
    const events: unknown[] = [];
    const assembler = createResultAssembler({ onEvent: (event) => events.push(event) });
    assembler.finish('stop');
    const result = assembler.complete();
    const count = events.length;
    assembler.textDelta('0', 'late');
    assembler.toolInputDelta('unknown', 'x');
    assembler.fail(new CairnError('LLM_UNAVAILABLE', 'late'));
    expect(events).toHaveLength(count);
    expect(result.message.content).toBe('');
  });

  it('finishes with tool_calls exactly when the message carries tool calls, keeping the raw reason', () => {
    const cut = createResultAssembler();
    cut.toolCallStart('call_a', 'write');
    cut.toolInputDelta('call_a', '{"text":"unfini');
    cut.finish('length', 'max_tokens');
    expect(cut.complete()).toMatchObject({ finishReason: 'tool_calls', rawFinishReason: 'max_tokens' });
    const none = createResultAssembler();
    none.textDelta('0', 'Hi');
    none.finish('tool_calls', 'tool_use');
    expect(none.complete().finishReason).toBe('stop');
  });

  it('passes an unknown provider event on as an unknown event, named by its source', () => {
    const events: unknown[] = [];
    const assembler = createResultAssembler({ source: 'anthropic', onEvent: (event) => events.push(event) });
    assembler.unknown({ type: 'server_tool_use', id: 'x' });
    assembler.finish('stop');
    assembler.complete();
    expect(events[0]).toMatchObject({
      type: 'unknown',
      source: 'anthropic',
      raw: { type: 'server_tool_use', id: 'x' },
    });
  });
});
