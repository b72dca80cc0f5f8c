import type { ConversationMessage } from '@cairn/core';
import { approvalElementId } from './approval-card.js';
import { type ExecutionApproval, isExpired } from './approval-text.js';
import { useRenderAt } from './use-render-at.js';

// The requests the conversation still waits for (their time not run out by the page's clock).
function pendingApprovals(messages: readonly ConversationMessage[]): ExecutionApproval[] {
  return messages.flatMap(({ toolExecution }) => {
    const approval = toolExecution?.approval;
    if (toolExecution?.status !== 'awaiting_approval' || approval === undefined) return [];
    return isExpired(approval) ? [] : [approval];
  });
}

/**
 * By the send box while a tool call waits for approval: the box still sends (the server declines the
 * call, superseded by the message), and Review goes to the first waiting card.
 */
export function PendingApprovalHint({ messages }: { messages: readonly ConversationMessage[] }) {
  const pending = pendingApprovals(messages);
  // Gone when the first of them expires.
  const expiries = pending.flatMap(({ expiresAt }) =>
    expiresAt === undefined ? [] : [Date.parse(expiresAt)],
  );
  useRenderAt(expiries.length === 0 ? undefined : Math.min(...expiries));
  const [first] = pending;
  if (first === undefined) return null;
  const many = pending.length > 1;
  const review = () => {
    const card = document.getElementById(approvalElementId(first.id));
    card?.scrollIntoView({ block: 'center' });
    card?.focus();
  };
  return (
    <div class="approval-hint" role="status">
      <span>
        {many ? `${pending.length} tool calls wait` : 'A tool call waits'} for your approval. A message sent
        now declines {many ? 'them' : 'it'}.
      </span>
      <button type="button" onClick={review}>
        Review
      </button>
    </div>
  );
}
