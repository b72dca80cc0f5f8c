import type { ApprovalDecision, ApprovalOutcome, ToolApprovalAnswer } from '@cairn/core';

const REASONS: Partial<Record<ApprovalOutcome, string>> = {
  expired: 'no decision came before the request expired',
  superseded: 'a new message came before a decision',
};

/** What the tool host is told a stored decision says. */
export function answerOfDecision(decision: ApprovalDecision): ToolApprovalAnswer {
  switch (decision.outcome) {
    case 'approve':
      return true;
    case 'edit':
      return { approved: true, input: decision.input };
    default: {
      const reason = decision.reason ?? REASONS[decision.outcome];
      return reason === undefined ? { approved: false } : { approved: false, reason };
    }
  }
}

/** The outcome an interactive approver's answer is stored as (`pending` is not an outcome). */
export function outcomeOfAnswer(
  answer: Exclude<ToolApprovalAnswer, 'pending'>,
): Pick<ApprovalDecision, 'outcome' | 'input' | 'reason'> {
  if (answer === true) return { outcome: 'approve' };
  if (answer === false) return { outcome: 'deny' };
  if (answer.approved)
    return 'input' in answer ? { outcome: 'edit', input: answer.input as never } : { outcome: 'approve' };
  return answer.reason === undefined ? { outcome: 'deny' } : { outcome: 'deny', reason: answer.reason };
}
