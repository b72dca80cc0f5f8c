import type { ApprovalOutcome, ToolExecutionMetadata } from '@cairn/core';

/** The approval of a tool execution, as the display view carries it. */
export type ExecutionApproval = NonNullable<ToolExecutionMetadata['approval']>;

/** A decider or asked-of id for a person: `system` is the server (an expiry, a new message), `local` the terminal. */
export function partyName(id: string): string {
  if (id === 'system') return 'the server';
  if (id === 'local') return 'the terminal';
  if (id === 'any') return 'anyone';
  return id;
}

const OUTCOME_WORDS: Record<ApprovalOutcome, string> = {
  approve: 'allowed',
  edit: 'allowed with an edited input',
  deny: 'denied',
  expired: 'expired',
  superseded: 'superseded by a new message',
};

function outcomeBy(approval: ExecutionApproval): string {
  if (approval.outcome === undefined) return '';
  const by = approval.decidedBy === undefined ? '' : ` by ${partyName(approval.decidedBy)}`;
  return `${OUTCOME_WORDS[approval.outcome]}${by}`;
}

/** "Allowed by …", "Denied by …: reason", "Expired: …", "Superseded by a new message"; empty while undecided. */
export function decisionText(approval: ExecutionApproval, reason?: string): string {
  switch (approval.outcome) {
    case undefined:
      return '';
    case 'expired':
      return 'Expired: no decision came in time';
    case 'superseded':
      return 'Superseded by a new message';
    default: {
      const text = outcomeBy(approval);
      const sentence = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
      return reason === undefined || reason === '' ? sentence : `${sentence}: ${reason}`;
    }
  }
}

/** What a decision refused with 409 says once the conversation is refreshed: "Already decided: allowed by …". */
export function alreadyDecidedText(approval: ExecutionApproval, serverMessage: string): string {
  return approval.outcome === undefined ? serverMessage : `Already decided: ${outcomeBy(approval)}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the call would do: a command line for `run_command` (with its directory), else the input as JSON. */
export function describeInput(execution: ToolExecutionMetadata): { label: string; text: string } {
  const { input } = execution;
  if (execution.toolName === 'run_command' && isRecord(input) && typeof input.command === 'string') {
    const cwd = typeof input.cwd === 'string' ? `\n(in ${input.cwd})` : '';
    return { label: 'Command', text: `${input.command}${cwd}` };
  }
  return { label: 'Input', text: JSON.stringify(input, null, 2) };
}

/** An edited input: JSON, or why it is not. */
export function parseJsonInput(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** "expires at 14:05"; "expired at 14:05" once past. */
export function expiryText(expiresAt: string, now = Date.now()): string {
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) return '';
  return `${at <= now ? 'expired' : 'expires'} at ${clock.format(at)}`;
}

/** Whether the request's time ran out by the page's clock (the server decides it `expired` when next asked). */
export const isExpired = (approval: ExecutionApproval, now = Date.now()) =>
  approval.expiresAt !== undefined && Date.parse(approval.expiresAt) <= now;
