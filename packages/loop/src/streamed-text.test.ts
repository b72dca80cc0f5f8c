import type { AgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { StreamedText } from './streamed-text.js';

const timestamp = '2026-11-23T00:00:00.000Z';

describe('StreamedText', () => {
  it('joins each block’s deltas, lets a block’s closing text replace them, and ignores everything else', () => {
    const streamed = new StreamedText();
    const events: AgentOutput[] = [
      { type: 'reasoning_delta', timestamp, id: 'r', delta: 'hmm' },
      { type: 'text_delta', timestamp, id: 'a', delta: 'Hel' },
      { type: 'text_delta', timestamp, id: 'a', delta: 'lo' },
      { type: 'text', timestamp, id: 'a', text: 'Hello.' },
      { type: 'tool_input_delta', timestamp, id: 'c', delta: '{"x":' },
      { type: 'text_delta', timestamp, id: 'b', delta: ' More' },
    ];
    expect(streamed.text).toBe('');
    for (const event of events) streamed.add(event);
    expect(streamed.text).toBe('Hello. More');
  });
});
