import type { ToolApprovalRequest } from '@cairn/core';
import type { ApprovalMode } from '../config/cli-settings.js';

export type ApprovalAnswer = 'yes' | 'no' | 'always';

/**
 * Asks the person at the terminal; absent when nobody can answer (stdin is not a terminal). Resolves
 * to undefined when no answer came (the turn was cancelled, the terminal went away).
 */
export type ApprovalPrompt = (request: ToolApprovalRequest) => Promise<ApprovalAnswer | undefined>;

/** Who the CLI's requests are asked of, and who it decides as: the person at this terminal. */
export const CLI_DECIDER = 'local';

/** What the approver answers: allowed, refused, or left pending in the store for a later decision. */
export type ApproverAnswer = boolean | 'pending';

/**
 * The runtime's `approve` callback, following the approval mode; `always` answers are remembered per
 * tool. The runtime stores each request before asking and each answer as its decision; `pending`
 * leaves the request waiting (`cairn approvals`, or `--resume` at a terminal).
 */
export interface Approver {
  approve(request: ToolApprovalRequest): Promise<ApproverAnswer>;
  /** The prompt the interactive chat installs (and removes when it ends). */
  setPrompt(prompt: ApprovalPrompt | undefined): void;
}

export function createApprover(
  mode: ApprovalMode,
  onRefused?: (request: ToolApprovalRequest) => void,
): Approver {
  const alwaysAllowed = new Set<string>();
  let prompt: ApprovalPrompt | undefined;
  // The calls of one message run in parallel; the person answers their questions one at a time.
  let asking: Promise<unknown> = Promise.resolve();

  const allowed = (request: ToolApprovalRequest) => mode === 'always' || alwaysAllowed.has(request.toolName);

  const decide = async (request: ToolApprovalRequest): Promise<ApproverAnswer> => {
    // An earlier question may have been answered "always" while this one waited.
    if (allowed(request)) return true;
    if (mode === 'never') {
      onRefused?.(request);
      return false;
    }
    // Nobody here to ask, or nobody answered: the request waits in the store for a decision.
    const answer = prompt === undefined ? undefined : await prompt(request);
    if (answer === undefined) return 'pending';
    if (answer === 'always') alwaysAllowed.add(request.toolName);
    return answer !== 'no';
  };

  return {
    setPrompt(next) {
      prompt = next;
    },
    async approve(request) {
      if (allowed(request)) return true;
      const decided = asking.then(() => decide(request));
      asking = decided.catch(() => {});
      return decided;
    },
  };
}
