import { describe, expect, it, vi } from 'vitest';
import { createEstimatingTokenizer } from './create-estimating-tokenizer.js';
import { estimateTextTokens } from './estimate-text-tokens.js';
import { userMessages } from './test-support.js';

// Counts how often the text estimator runs, without changing what it returns.
vi.mock('./estimate-text-tokens.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./estimate-text-tokens.js')>();
  return { ...original, estimateTextTokens: vi.fn(original.estimateTextTokens) };
});
const estimatorRuns = vi.mocked(estimateTextTokens);

describe('cached counting', () => {
  it('counts only the new message when one is appended to a 10,000-message history', () => {
    const tokenizer = createEstimatingTokenizer({ family: 'anthropic' });
    const history = userMessages(10_000);
    const before = tokenizer.count(history);
    expect(estimatorRuns).toHaveBeenCalledTimes(10_000);

    estimatorRuns.mockClear();
    history.push({ role: 'user', content: 'one more' });
    const after = tokenizer.count(history);
    expect(estimatorRuns).toHaveBeenCalledTimes(1);
    expect(after).toBeGreaterThan(before);

    estimatorRuns.mockClear();
    expect(tokenizer.count([...history])).toBe(after);
    expect(estimatorRuns).not.toHaveBeenCalled();
  });

  it('counts only the replacement when a message in the middle is replaced, and nothing when one is restored', () => {
    const tokenizer = createEstimatingTokenizer({ family: 'generic' });
    const history = userMessages(10_000);
    const original = tokenizer.count(history);
    const replaced = history[5_000];

    estimatorRuns.mockClear();
    history[5_000] = {
      role: 'user',
      content: 'a much longer message than the one it replaces, in the middle',
    };
    const edited = tokenizer.count(history);
    expect(estimatorRuns).toHaveBeenCalledTimes(1);
    expect(edited).toBeGreaterThan(original);

    estimatorRuns.mockClear();
    if (replaced !== undefined) history[5_000] = replaced;
    expect(tokenizer.count(history)).toBe(original);
    expect(estimatorRuns).not.toHaveBeenCalled();
  });

  it('keeps the running totals of a long history while single messages are counted in between', () => {
    const tokenizer = createEstimatingTokenizer({ family: 'generic' });
    const history = userMessages(10_000);
    tokenizer.count(history);
    const [first] = history;
    if (first !== undefined) tokenizer.count([first]);
    tokenizer.count([]);
    history.push({ role: 'user', content: 'one more' });
    // Per-message counts live in a WeakMap: a recount of the whole history would look up 10,001.
    const lookups = vi.spyOn(WeakMap.prototype, 'get');
    tokenizer.count(history);
    expect(lookups.mock.calls.length).toBeLessThan(10);
    lookups.mockRestore();
  });

  it('counts a calibrated history after one new message without re-estimating the rest', () => {
    const tokenizer = createEstimatingTokenizer({ family: 'gemini' });
    const history = userMessages(10_000);
    tokenizer.calibrate(history, 250_000);
    estimatorRuns.mockClear();
    history.push({ role: 'user', content: 'one more' });
    expect(tokenizer.count(history)).toBeGreaterThan(250_000);
    expect(estimatorRuns).toHaveBeenCalledTimes(1);
  });
});
