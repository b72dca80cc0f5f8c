import { CairnError } from '@cairn/core';
import { describe, expect, it, vi } from 'vitest';
import { retryStream } from './retry-stream.js';

const noSleep = async () => undefined;

/** A provider stream that yields `pieces`, then fails with `error` if given. */
async function* providerStream(pieces: string[], error?: unknown): AsyncGenerator<string> {
  for (const piece of pieces) yield piece;
  if (error !== undefined) throw error;
}

async function collect(stream: AsyncIterable<string>): Promise<{ pieces: string[]; error?: unknown }> {
  const pieces: string[] = [];
  try {
    for await (const piece of stream) pieces.push(piece);
    return { pieces };
  } catch (error) {
    return { pieces, error };
  }
}

describe('retryStream', () => {
  it('retries opening the stream until the first piece arrives', async () => {
    const outcomes = [
      () => {
        throw new CairnError('LLM_RATE_LIMITED', '429', { retryAfterMs: 5 });
      },
      () => providerStream([], new CairnError('LLM_UNAVAILABLE', 'cut before any output')),
      () => providerStream(['a', 'b']),
    ];
    const open = vi.fn(async (attempt: number) => (outcomes[attempt - 1] as () => AsyncIterable<string>)());
    expect(await collect(retryStream(open, { sleep: noSleep }))).toEqual({ pieces: ['a', 'b'] });
    expect(open).toHaveBeenCalledTimes(3);
  });

  it('never replays a stream that produced output', async () => {
    const cut = new CairnError('LLM_UNAVAILABLE', 'cut mid-stream');
    const open = vi.fn(async () => providerStream(['a'], cut));
    expect(await collect(retryStream(open, { sleep: noSleep }))).toEqual({ pieces: ['a'], error: cut });
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('ends quietly on an empty stream', async () => {
    expect(await collect(retryStream(() => providerStream([]), { sleep: noSleep }))).toEqual({ pieces: [] });
  });

  it('closes the provider stream when the consumer stops early', async () => {
    let closed = false;
    async function* endless() {
      try {
        for (let n = 0; ; n++) yield String(n);
      } finally {
        closed = true;
      }
    }
    for await (const piece of retryStream(endless)) if (piece === '2') break;
    expect(closed).toBe(true);
  });
});
