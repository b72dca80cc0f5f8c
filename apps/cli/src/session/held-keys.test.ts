import { emitKeypressEvents, type Key } from 'node:readline';
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { holdKeys } from './held-keys.js';

/** A terminal input with a listener standing for the chat's readline, which records its keys. */
function terminalInput() {
  const input = new PassThrough();
  emitKeypressEvents(input);
  const readline: string[] = [];
  input.on('keypress', (_text: string | undefined, key: Key) => readline.push(key.name ?? '?'));
  return { input, readline };
}

describe('holdKeys', () => {
  it('takes the keys from the other listeners, drops the rest of the answer chunk, then gives them back', async () => {
    const { input, readline } = terminalInput();
    input.write('a');
    await nextTurn();
    const keys = holdKeys(input);
    const key = keys.next();
    // An answer typed with more after it: "y" answers, "zz" must not reach the next prompt.
    input.write('yzz');
    expect((await key)?.name).toBe('y');
    keys.release();
    await nextTurn();
    input.write('b');
    await nextTurn();
    expect(readline).toEqual(['a', 'b']);
    expect(input.listenerCount('keypress')).toBe(1);
  });

  it('keeps holding for a question asked straight after, and gives the keys back once', async () => {
    const { input, readline } = terminalInput();
    const first = holdKeys(input);
    first.release();
    const second = holdKeys(input);
    const key = second.next();
    await nextTurn();
    input.write('n');
    expect((await key)?.name).toBe('n');
    second.release();
    await nextTurn();
    input.write('c');
    await nextTurn();
    expect(readline).toEqual(['c']);
    expect(input.listenerCount('keypress')).toBe(1);
  });

  it('answers nothing when the signal aborts or the input ends', async () => {
    const { input } = terminalInput();
    const keys = holdKeys(input);
    const controller = new AbortController();
    const waiting = keys.next(controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
    const ending = keys.next();
    input.end();
    input.resume();
    await expect(ending).resolves.toBeUndefined();
    keys.release();
  });
});
