import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkString, resolveScriptTurn } from './resolve-script-turn.js';

describe('resolveScriptTurn', () => {
  it('applies the defaults: ids, JSON-string arguments, finish reason, usage, chunk size', () => {
    const turn = resolveScriptTurn(
      {
        text: 'Hi',
        toolCalls: [
          { name: 'a', arguments: { x: 1 } },
          { id: 'mine', name: 'b', arguments: '{bad' },
        ],
      },
      (index) => `id${index}`,
    );
    expect(turn.toolCalls).toEqual([
      { id: 'id0', name: 'a', arguments: '{"x":1}' },
      { id: 'mine', name: 'b', arguments: '{bad' },
    ]);
    expect(turn.finish).toBe('tool_calls');
    expect(turn.chunkSize).toBe(8);
    expect(turn.usage.totalTokens).toBe(turn.usage.inputTokens + turn.usage.outputTokens);
    expect(resolveScriptTurn({ text: 'Hi' }, String).finish).toBe('stop');
    expect(resolveScriptTurn({ text: 'Hi', finish: 'length' }, String).finish).toBe('length');
  });

  it('keeps reasoning tokens within the output tokens', () => {
    const turn = resolveScriptTurn({ reasoning: 'x'.repeat(400), usage: { outputTokens: 5 } }, String);
    expect(turn.usage).toMatchObject({ outputTokens: 5, reasoningTokens: 5 });
  });
});

describe('chunkString', () => {
  it('splits by code points: never inside an emoji, but between a letter and its combining mark', () => {
    expect(chunkString('a😀b', 1)).toEqual(['a', '😀', 'b']);
    expect(chunkString('e\u0301t', 1)).toEqual(['e', '\u0301', 't']);
    expect(chunkString('', 3)).toEqual([]);
  });

  it('rejoins to the input with every chunk at most `size` code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 10 }), (text, size) => {
        const chunks = chunkString(text, size);
        expect(chunks.join('')).toBe(text);
        for (const chunk of chunks) expect(Array.from(chunk).length).toBeLessThanOrEqual(size);
      }),
      { numRuns: 100 },
    );
  });
});
