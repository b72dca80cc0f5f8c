import type { DynamicToolUIPart } from 'ai';

/**
 * A stored approval record's `approval` (a `system` message of the log): the request a call waits
 * on — the record's id is the request's, what `addToolApprovalResponse` answers — or its one decision.
 */
export type StoredApproval =
  | { kind: 'request'; toolCallId: string }
  | { kind: 'decision'; requestId: string; outcome: string; reason?: string };

/** A stored tool result (`role: 'tool'`), as far as the page shows it. */
export interface StoredResult {
  text: string;
  isError: boolean;
  structuredResult?: unknown;
}

/** What a call's part keeps whatever its state. */
interface Call {
  type: 'dynamic-tool';
  toolName: string;
  toolCallId: string;
  input: unknown;
}

const callOf = ({ type, toolName, toolCallId, input }: DynamicToolUIPart): Call => ({
  type,
  toolName,
  toolCallId,
  input,
});

/** A call of an assistant message, before anything else is stored about it. */
export function calledPart(toolName: string, toolCallId: string, input: unknown): DynamicToolUIPart {
  return { type: 'dynamic-tool', toolName, toolCallId, state: 'input-available', input };
}

/** The call waits for a person's decision on the request `requestId`. */
export function awaitingApprovalPart(part: DynamicToolUIPart, requestId: string): DynamicToolUIPart {
  return { ...callOf(part), state: 'approval-requested', approval: { id: requestId } };
}

/**
 * The call once its request is decided, until its result is stored: approved (or approved with an
 * edited input) it runs next; any other outcome — denied, or `expired`/`superseded` by the server —
 * means it never runs. Answered, not settled: a turn going on after the decision settles it in the
 * resumed stream (`tool-output-available`, `tool-output-denied`), which needs the call in this state.
 */
export function decidedPart(
  part: DynamicToolUIPart,
  decision: Extract<StoredApproval, { kind: 'decision' }>,
): DynamicToolUIPart {
  if (part.state !== 'approval-requested') return part;
  const { outcome } = decision;
  const approved = outcome === 'approve' || outcome === 'edit';
  const reason = decision.reason ?? (approved || outcome === 'deny' ? undefined : outcome);
  return {
    ...callOf(part),
    state: 'approval-responded',
    approval: { id: part.approval.id, approved, ...(reason === undefined ? {} : { reason }) },
  };
}

/** The call with its result; a denied call ends denied (its result is the denial the model read). */
export function resultPart(part: DynamicToolUIPart, result: StoredResult): DynamicToolUIPart {
  if (part.state === 'approval-responded' && !part.approval.approved) {
    return { ...callOf(part), state: 'output-denied', approval: { ...part.approval, approved: false } };
  }
  return result.isError
    ? { ...callOf(part), state: 'output-error', errorText: result.text }
    : { ...callOf(part), state: 'output-available', output: result.structuredResult ?? result.text };
}
