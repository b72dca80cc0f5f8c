import type { ToolApprovalRequest } from '@cairn/core';
import type { ApprovalMode } from '../config/cli-settings.js';

export type ApprovalAnswer = 'yes' | 'no' | 'always';

/** Asks the person at the terminal; absent when nobody can answer (stdin is not a terminal). */
export type ApprovalPrompt = (request: ToolApprovalRequest) => Promise<ApprovalAnswer>;

/** The runtime's `approve` callback, following the approval mode; `always` answers are remembered per tool. */
export interface Approver {
  approve(request: ToolApprovalRequest): Promise<boolean>;
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

  const decide = async (request: ToolApprovalRequest): Promise<boolean> => {
    // An earlier question may have been answered "always" while this one waited.
    if (allowed(request)) return true;
    if (mode === 'never' || prompt === undefined) {
      onRefused?.(request);
      return false;
    }
    const answer = await prompt(request);
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

/** What the user is asked to allow, in one line: the command for a shell call, else the input. */
export function describeApprovalRequest(request: ToolApprovalRequest): string {
  const input = request.input as { command?: unknown } | null;
  if (typeof input?.command === 'string') return `${request.toolName}: ${input.command}`;
  return `${request.toolName} ${JSON.stringify(request.input)}`;
}
