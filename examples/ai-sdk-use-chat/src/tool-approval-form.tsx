import type { ChatAddToolApproveResponseFunction } from 'ai';
import { useId, useState } from 'react';

/**
 * Approve or Deny for a call that waits for approval, with an optional reason the model reads with a
 * denial. The answer goes to `useChat`, whose `sendAutomaticallyWhen` posts it to the server.
 */
export function ToolApprovalForm({
  approvalId,
  onApprovalResponse,
}: {
  approvalId: string;
  onApprovalResponse: ChatAddToolApproveResponseFunction;
}) {
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const answer = (approved: boolean) => {
    const given = reason.trim();
    void onApprovalResponse({
      id: approvalId,
      approved,
      ...(approved || given === '' ? {} : { reason: given }),
    });
  };
  return (
    <fieldset className="tool-approval" data-testid="tool-approval">
      <legend>Run this call?</legend>
      <label htmlFor={reasonId}>Reason (optional)</label>
      <input
        id={reasonId}
        value={reason}
        placeholder="told to the model on Deny"
        onChange={(event) => setReason(event.target.value)}
      />
      <button type="button" onClick={() => answer(true)}>
        Approve
      </button>
      <button type="button" onClick={() => answer(false)}>
        Deny
      </button>
    </fieldset>
  );
}
