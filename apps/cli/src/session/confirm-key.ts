import type { CliIO } from '../io.js';
import { holdKeys } from './held-keys.js';

export type ConfirmAnswer = 'yes' | 'no' | 'interrupted';

/**
 * Asks `question` at the terminal and takes one key, no Enter needed: `y` is yes, Ctrl-C
 * interrupted, any other key (Enter, `n`, Ctrl-D…), the input ending or `signal` aborting (the
 * process asked to end) no. The answer is echoed and the line ended, so what follows starts on a
 * line of its own.
 */
export async function confirmKey(io: CliIO, question: string, signal?: AbortSignal): Promise<ConfirmAnswer> {
  io.stdout.write(question);
  const keys = holdKeys(io.stdin);
  try {
    const key = await keys.next(signal);
    const result: ConfirmAnswer =
      key?.ctrl === true && key.name === 'c' ? 'interrupted' : key?.name === 'y' ? 'yes' : 'no';
    io.stdout.write(`${result === 'yes' ? 'y' : result === 'interrupted' ? '^C' : 'n'}\n`);
    return result;
  } finally {
    keys.release();
    // Nothing else reads the terminal: a flowing stdin would keep the process alive.
    io.stdin.pause();
  }
}
