import type { Key } from 'node:readline';
import { describeApprovalRequest } from '../render/approval-text.js';
import type { Colors } from '../render/colors.js';
import type { Spinner } from '../render/spinner.js';
import type { ApprovalAnswer, ApprovalPrompt } from './approver.js';
import { holdKeys, type KeyInput } from './held-keys.js';

/** A key that answers, and whether it is the chat's Ctrl-C too. */
interface KeyAnswer {
  answer: ApprovalAnswer;
  interrupt?: boolean;
}

const LETTERS: Readonly<Record<string, ApprovalAnswer>> = { y: 'yes', n: 'no', a: 'always' };

/** y, n or a (either case); Esc or Ctrl-C answer no. Anything else, Enter included, is no answer. */
export function keyAnswer(key: Key): KeyAnswer | undefined {
  if (key.ctrl === true && key.name === 'c') return { answer: 'no', interrupt: true };
  if (key.name === 'escape') return { answer: 'no' };
  if (key.ctrl === true || key.meta === true || key.name === undefined) return undefined;
  const answer = LETTERS[key.name];
  return answer === undefined ? undefined : { answer };
}

/**
 * The run_command question at the terminal, answered with one key: `y`, `n` or `a` (always, for
 * this session); the answer is echoed, any other key gets a hint and the question again. Esc
 * answers no; Ctrl-C answers no and is the chat's Ctrl-C as well (`onInterrupt` aborts the turn).
 * A turn cancelled (or a terminal gone) before a key came is no answer: the request stays pending
 * in the store, to be asked again on `--resume`. The spinner stops while it waits. What the answer
 * means is the approver's business.
 */
export function terminalApprovalPrompt(options: {
  input: KeyInput;
  write: (text: string) => void;
  colors: Colors;
  spinner?: Spinner;
  signal: () => AbortSignal | undefined;
  onInterrupt: () => void;
}): ApprovalPrompt {
  const { colors, write } = options;
  const hint = colors.dim('  press y (yes), n (no) or a (always, this session); Esc answers no');
  return async (request) => {
    const signal = options.signal();
    // A question queued behind one whose Ctrl-C cancelled the turn: nobody saw it, nobody answered.
    if (signal?.aborted) return undefined;
    options.spinner?.stop();
    const question = `${colors.yellow('?')} allow ${colors.bold(describeApprovalRequest(request))} ${colors.dim('[y]es / [n]o / [a]lways')} `;
    const keys = holdKeys(options.input);
    try {
      write(question);
      for (;;) {
        const key = await keys.next(signal);
        // The turn was cancelled (or the input ended) while it asked: nothing was decided.
        if (key === undefined) {
          write('\n');
          return undefined;
        }
        const chosen = keyAnswer(key);
        if (chosen === undefined) {
          write(`\n${hint}\n${question}`);
          continue;
        }
        write(`${chosen.answer === 'no' ? colors.yellow('no') : colors.green(chosen.answer)}\n`);
        if (chosen.interrupt) options.onInterrupt();
        return chosen.answer;
      }
    } finally {
      keys.release();
    }
  };
}
