import type { CliIO } from '../io.js';

export type KeyAnswer = 'yes' | 'no' | 'interrupted';

const CTRL_C = '\u0003';

/**
 * Asks `question` at the terminal and takes one key, no Enter needed: `y` is yes, Ctrl-C
 * interrupted, any other key (Enter, `n`, Ctrl-D…) or the input ending no. The answer is echoed
 * and the line ended, so what follows starts on a line of its own.
 */
export function confirmKey(io: CliIO, question: string): Promise<KeyAnswer> {
  const { stdin, stdout } = io;
  stdout.write(question);
  // Raw mode: the key arrives as typed, Ctrl-C as a byte rather than a signal.
  stdin.setRawMode?.(true);
  return new Promise((resolve) => {
    const answer = (result: KeyAnswer) => {
      stdin.removeListener('data', onKey);
      stdin.removeListener('end', onEnd);
      stdin.setRawMode?.(false);
      stdin.pause();
      stdout.write(`${result === 'yes' ? 'y' : result === 'interrupted' ? '^C' : 'n'}\n`);
      resolve(result);
    };
    const onKey = (chunk: Buffer | string) => {
      const key = chunk.toString();
      answer(key.startsWith(CTRL_C) ? 'interrupted' : /^y/i.test(key) ? 'yes' : 'no');
    };
    const onEnd = () => answer('no');
    stdin.on('data', onKey);
    stdin.once('end', onEnd);
    stdin.resume();
  });
}
