import type { Interface } from 'node:readline/promises';
import type { Colors } from '../render/colors.js';
import type { Spinner } from '../render/spinner.js';
import { type ApprovalAnswer, type ApprovalPrompt, describeApprovalRequest } from './approver.js';

/**
 * The run_command question at the terminal: `y`, `n` or `a` (always, for this session). The spinner
 * stops while it waits; Ctrl-C (the turn's signal) answers no.
 */
export function terminalApprovalPrompt(
  rl: Interface,
  options: {
    colors: Colors;
    spinner?: Spinner;
    signal: () => AbortSignal | undefined;
    say: (text: string) => void;
  },
): ApprovalPrompt {
  const { colors } = options;
  return async (request) => {
    options.spinner?.stop();
    const question = `${colors.yellow('?')} allow ${colors.bold(describeApprovalRequest(request))} ${colors.dim('[y]es / [n]o / [a]lways')} `;
    const signal = options.signal();
    try {
      const answer = (await rl.question(question, signal === undefined ? {} : { signal }))
        .trim()
        .toLowerCase();
      const decided: ApprovalAnswer = answer.startsWith('a')
        ? 'always'
        : answer.startsWith('y')
          ? 'yes'
          : 'no';
      if (decided === 'no') options.say(colors.dim('  refused'));
      return decided;
    } catch {
      return 'no';
    }
  };
}
