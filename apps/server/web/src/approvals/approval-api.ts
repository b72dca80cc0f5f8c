import type { ApprovalEntry } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { conversationPath, json, postJson, readTurnEvents, request, type TurnEvent } from '../api-client.js';

/** What a person decides about a waiting tool call (`POST …/approvals/{id}`). */
export type ApprovalDecisionBody =
  | { decision: 'approve' }
  | { decision: 'deny'; reason?: string }
  | { decision: 'edit'; input: unknown };

/** A row of `GET …/approvals`: the request, its decision once decided, where it stands. */
export type ListedApproval = ApprovalEntry & { status: 'pending' | 'expired' | 'decided' };

const approvalsPath = (conversationId: string) => `${conversationPath(conversationId)}/approvals`;

/**
 * Stores the decision, then reports the turn it continues as `sendMessage` does. The server's refusal
 * is an `ApiRequestError`: 409 decided already, 410 expired, 400 an edit the tool refuses, 403, 404.
 */
export async function decideApproval(
  conversationId: string,
  approvalId: string,
  body: ApprovalDecisionBody,
  onEvent: (event: TurnEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await request(`${approvalsPath(conversationId)}/${encodeURIComponent(approvalId)}`, {
    ...postJson(body, { accept: 'text/event-stream' }),
    ...definedFields({ signal }),
  });
  await readTurnEvents(response, onEvent);
}

/** Every approval request of the conversation, oldest first. */
export async function listApprovals(conversationId: string, signal?: AbortSignal): Promise<ListedApproval[]> {
  const listed = await json<{ approvals: ListedApproval[] }>(approvalsPath(conversationId), {
    ...definedFields({ signal }),
  });
  return listed.approvals;
}
