import type { ApprovalDecision, ApprovalEntry, ToolApprovalRequest } from '@cairn/core';
import type { Colors } from './colors.js';

type Asked = Pick<ToolApprovalRequest, 'toolName' | 'input'>;

/** What the user is asked to allow, in one line: the command for a shell call, else the input. */
export function describeApprovalRequest(request: Asked): string {
  const input = request.input as { command?: unknown } | null;
  if (typeof input?.command === 'string') return `${request.toolName}: ${input.command}`;
  return `${request.toolName} ${JSON.stringify(request.input)}`;
}

/** `approve by local at 2026-…` (with the reason of a denial). */
export function describeDecision(
  decision: Pick<ApprovalDecision, 'outcome' | 'decidedBy' | 'decidedAt' | 'reason'>,
): string {
  const reason = decision.reason === undefined ? '' : ` (${decision.reason})`;
  return `${decision.outcome} by ${decision.decidedBy} at ${decision.decidedAt}${reason}`;
}

/** `already decided by local (approve at 2026-…)`: the one decision someone else stored first. */
export function alreadyDecidedText(
  decision: Pick<ApprovalDecision, 'outcome' | 'decidedBy' | 'decidedAt'>,
): string {
  return `already decided by ${decision.decidedBy} (${decision.outcome} at ${decision.decidedAt})`;
}

/** The commands that decide a request, exactly as typed (CLI ids need no quoting). */
export function decideCommands(
  conversationId: string,
  approvalId: string,
): { approve: string; deny: string } {
  return {
    approve: `cairn approvals approve ${conversationId} ${approvalId}`,
    deny: `cairn approvals deny ${conversationId} ${approvalId}`,
  };
}

/**
 * The requests a turn stopped for: per request its tool and exact input (JSON, as it would run),
 * its id, and the commands that decide it. Nothing ran; the conversation waits in the store.
 */
export function waitingLines(
  conversationId: string,
  waiting: readonly ApprovalEntry[],
  colors: Colors,
): string {
  return waiting
    .map(({ id, request }) => {
      const commands = decideCommands(conversationId, id);
      return [
        `${colors.yellow('?')} ${request.toolName} waits for approval: ${JSON.stringify(request.input)}`,
        `    id:      ${id}`,
        `    approve: ${commands.approve}`,
        `    deny:    ${commands.deny}`,
        '',
      ].join('\n');
    })
    .join('');
}
