import { emitKeypressEvents, type Key } from 'node:readline';

/** A terminal's input, as key reading needs it. */
export type KeyInput = NodeJS.ReadableStream & {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (mode: boolean) => unknown;
};

/** The keys of a terminal, taken from whoever else reads them until `release`. */
export interface HeldKeys {
  /** The next key pressed; `undefined` when `signal` aborts or the input ends first. */
  next(signal?: AbortSignal): Promise<Key | undefined>;
  release(): void;
}

type KeypressListener = (text: string | undefined, key: Key | undefined) => void;

interface Holding {
  /** The listeners set aside (the chat's readline), with the state to restore. */
  others: KeypressListener[];
  wasRaw: boolean;
  wasPaused: boolean;
  restore?: NodeJS.Immediate;
}

const holdings = new WeakMap<KeyInput, Holding>();

/**
 * Holds the keys of `input`, one at a time, in raw mode: the other keypress listeners (the chat's
 * readline) hear nothing meanwhile, so no key meant for a question lands in the next prompt. They
 * get the keys back on the next turn of the event loop, after the rest of the chunk that held the
 * answer (a paste, keys typed together) has been dropped; a question asked straight after keeps
 * holding them.
 */
export function holdKeys(input: KeyInput): HeldKeys {
  emitKeypressEvents(input);
  let holding = holdings.get(input);
  if (holding?.restore !== undefined) {
    clearImmediate(holding.restore);
    delete holding.restore;
  } else {
    const others = input.listeners('keypress') as KeypressListener[];
    for (const listener of others) input.removeListener('keypress', listener);
    holding = { others, wasRaw: input.isRaw === true, wasPaused: input.isPaused() };
    holdings.set(input, holding);
    if (input.isTTY === true && !holding.wasRaw) input.setRawMode?.(true);
    if (holding.wasPaused) input.resume();
  }
  const held = holding;
  // Keys typed ahead of the next question (several in one chunk) wait here, in order.
  const typed: Key[] = [];
  let waiting: ((key: Key | undefined) => void) | undefined;
  const onKeypress: KeypressListener = (_text, key) => {
    if (waiting === undefined) typed.push(key ?? {});
    else waiting(key ?? {});
  };
  const onEnd = () => waiting?.(undefined);
  input.on('keypress', onKeypress);
  input.on('end', onEnd);
  let released = false;
  return {
    next(signal) {
      const key = typed.shift();
      if (key !== undefined) return Promise.resolve(key);
      if (released || signal?.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const answer = (pressed: Key | undefined) => {
          waiting = undefined;
          signal?.removeEventListener('abort', onAbort);
          resolve(pressed);
        };
        const onAbort = () => answer(undefined);
        waiting = answer;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    release() {
      if (released) return;
      released = true;
      // From now on the rest of the chunk goes to nobody, until the others get the keys back.
      input.removeListener('keypress', onKeypress);
      input.removeListener('end', onEnd);
      waiting?.(undefined);
      held.restore = setImmediate(() => {
        holdings.delete(input);
        if (input.isTTY === true && !held.wasRaw) input.setRawMode?.(false);
        if (held.wasPaused) input.pause();
        for (const listener of held.others) input.on('keypress', listener);
      });
    },
  };
}
