import { type ApprovalDecision, CairnError } from '@cairn/core';
import { alreadyDecidedText, describeApprovalRequest } from '../render/approval-text.js';
import type { Colors } from '../render/colors.js';
import { CLI_DECIDER } from '../session/approver.js';
import type { CliSession } from '../session/open-session.js';
import { lastCalls } from './last-calls.js';

/** What asking about a conversation's waiting requests came to. */
export interface PendingDecisions {
  /** Decisions this process stored. */
  decided: number;
  /** Requests still waiting: nobody answered, or they are someone else's to decide. */
  left: number;
}

/**
 * Asks about each request of the conversation's open calls that waits for a decision the CLI may make, through
 * the session's approver (the terminal question, or the approval mode), and stores each answer as
 * the request's one decision. One decided elsewhere in the meantime is said so ("already decided by
 * …"), not an error; one nobody answered stays pending.
 */
export async function decidePendingApprovals(
  session: Pick<CliSession, 'runtime' | 'approver' | 'store'>,
  conversationId: string,
  say: (line: string) => void,
  colors: Colors,
): Promise<PendingDecisions> {
  const outcome: PendingDecisions = { decided: 0, left: 0 };
  const { approvals } = session.runtime;
  // Only a call still open can run: one a cancelled turn answered as interrupted is moot.
  const open = new Set(
    lastCalls(await session.store.load(conversationId)).unsettled.map((call) => call.approval?.id),
  );
  for (const view of await approvals.list(conversationId)) {
    if (view.status !== 'pending' || !open.has(view.id)) continue;
    const { request } = view;
    if (request.askedOf !== CLI_DECIDER && request.askedOf !== 'any') {
      say(colors.dim(`${describeApprovalRequest(request)} waits for ${request.askedOf} to decide`));
      outcome.left++;
      continue;
    }
    const answer = await session.approver.approve(request);
    if (answer === 'pending') {
      outcome.left++;
      continue;
    }
    try {
      await approvals.decide({
        conversationId,
        approvalId: view.id,
        decision: answer ? 'approve' : 'deny',
        decidedBy: CLI_DECIDER,
      });
      outcome.decided++;
    } catch (error) {
      if (!CairnError.is(error, 'APPROVAL_ALREADY_DECIDED')) throw error;
      const first = error.details?.decision as ApprovalDecision;
      say(colors.yellow(`${describeApprovalRequest(request)}: ${alreadyDecidedText(first)}`));
    }
  }
  return outcome;
}
