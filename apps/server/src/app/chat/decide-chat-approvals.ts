import { CairnError } from '@cairn/core';
import type { AgentRuntime, ContinuedCall } from '@cairn/runtime';
import type { ApprovalResponse } from './chat-request.js';

/**
 * Stores the decision of each approval the client answered, in order, and returns the calls the
 * answer goes on with, as the store has them (their tool and input are the stored request's, never
 * the client's). The same answer sent again by the same caller (a retried request) is taken as given;
 * any other refusal (decided otherwise or by someone else, expired, not found, asked of another
 * caller) is thrown and nothing after it decided.
 */
export async function decideChatApprovals(
  runtime: Pick<AgentRuntime, 'approvals'>,
  conversationId: string,
  responses: readonly ApprovalResponse[],
  decidedBy: string,
): Promise<ContinuedCall[]> {
  for (const response of responses) {
    const outcome = response.approved ? 'approve' : 'deny';
    try {
      await runtime.approvals.decide({
        conversationId,
        approvalId: response.approvalId,
        decision: outcome,
        decidedBy,
        ...(response.reason === undefined ? {} : { reason: response.reason }),
      });
    } catch (error) {
      const standing = CairnError.is(error, 'APPROVAL_ALREADY_DECIDED')
        ? (error.details?.decision as { outcome?: unknown; decidedBy?: unknown } | undefined)
        : undefined;
      if (standing?.outcome !== outcome || standing.decidedBy !== decidedBy) throw error;
    }
  }
  const stored = new Map((await runtime.approvals.list(conversationId)).map((entry) => [entry.id, entry]));
  return responses.flatMap((response): ContinuedCall[] => {
    const entry = stored.get(response.approvalId);
    if (entry === undefined) return [];
    const { toolCallId, toolName, input } = entry.request;
    const { reason } = entry.decision ?? {};
    return [
      {
        toolCallId,
        toolName,
        input,
        approval: { id: entry.id, approved: response.approved, ...(reason === undefined ? {} : { reason }) },
      },
    ];
  });
}
