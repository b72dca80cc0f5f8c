import type { ConversationMessage } from './conversation-message.js';
import type { ApprovalDecision, ApprovalRequest, ToolIntent } from './ledger-schemas.js';

export const APPROVAL_REQUEST_PART_TYPE = 'approval_request';
export const APPROVAL_DECISION_PART_TYPE = 'approval_decision';
export const TOOL_INTENT_PART_TYPE = 'tool_intent';

// A message id holds at most 128 characters; the ledger's ids add a suffix to the assistant
// message's, so a long one is folded (FNV-1a, 64 bits) to a short stand-in, the same every time.
const MAX_BASE_LENGTH = 100;

function ledgerBase(assistantMessageId: string): string {
  if (assistantMessageId.length <= MAX_BASE_LENGTH) return assistantMessageId;
  let hash = 0xcbf29ce484222325n;
  for (const char of assistantMessageId) {
    hash ^= BigInt(char.codePointAt(0) as number);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `h${hash.toString(16)}`;
}

/**
 * The ids of a call's ledger records: derived from the assistant message and the call's index, so
 * that every process names the same record the same. A message id is unique in a conversation, so
 * whoever appends one first owns it: that is what makes a decision, or an attempt, happen once.
 */
export const ledgerRecordIds = {
  request: (assistantMessageId: string, callIndex: number) =>
    `${ledgerBase(assistantMessageId)}.a${callIndex}`,
  /** A request's one decision. */
  decision: (requestId: string) => `${requestId}.d`,
  /** Attempt `attempt` (1, 2, …) of the call. */
  intent: (assistantMessageId: string, callIndex: number, attempt: number) =>
    `${ledgerBase(assistantMessageId)}.i${callIndex}.${attempt}`,
  /** The call's result (`tool` message). */
  result: (assistantMessageId: string, callIndex: number) =>
    `${ledgerBase(assistantMessageId)}.r${callIndex}`,
};

/** When a ledger record is made (its id comes from what it records). */
export interface LedgerRecordFields {
  createdAt: string;
}

type RecordFields = LedgerRecordFields & { id: string };

// Hidden system records, like a title record: the log keeps them for people and the runtime; a
// display-only part type and `includeInContext: false` keep them from every model request.
function record(fields: RecordFields, partType: string, content: string): ConversationMessage {
  return {
    id: fields.id,
    role: 'system',
    createdAt: fields.createdAt,
    content,
    partType,
    includeInContext: false,
  };
}

const oneLine = (value: unknown) => {
  const text = JSON.stringify(value) ?? '';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

/** The record asking for a call's approval; its id is `ledgerRecordIds.request(…)`. */
export function approvalRequestRecord(
  fields: LedgerRecordFields,
  request: Omit<ApprovalRequest, 'kind'>,
): ConversationMessage {
  const id = ledgerRecordIds.request(request.assistantMessageId, request.callIndex);
  const message = record(
    { ...fields, id },
    APPROVAL_REQUEST_PART_TYPE,
    `Approval asked: ${request.toolName} ${oneLine(request.input)}`,
  );
  message.approval = { kind: 'request', ...request };
  return message;
}

/** The one decision of the request `decision.requestId`. */
export function approvalDecisionRecord(
  fields: LedgerRecordFields,
  decision: Omit<ApprovalDecision, 'kind'>,
): ConversationMessage {
  const id = ledgerRecordIds.decision(decision.requestId);
  const message = record(
    { ...fields, id },
    APPROVAL_DECISION_PART_TYPE,
    `Approval ${decision.outcome} by ${decision.decidedBy}`,
  );
  message.approval = { kind: 'decision', ...decision };
  return message;
}

/** The record of a call about to run (attempt `intent.attempt`). */
export function toolIntentRecord(fields: LedgerRecordFields, intent: ToolIntent): ConversationMessage {
  const id = ledgerRecordIds.intent(intent.assistantMessageId, intent.callIndex, intent.attempt);
  const message = record(
    { ...fields, id },
    TOOL_INTENT_PART_TYPE,
    `Running ${intent.toolName} (attempt ${intent.attempt})`,
  );
  message.toolIntent = intent;
  return message;
}

/** Whether `message` is one of the ledger's records (an approval request or decision, a tool intent). */
export function isLedgerRecord(message: Pick<ConversationMessage, 'role' | 'partType'>): boolean {
  return (
    message.role === 'system' &&
    (message.partType === APPROVAL_REQUEST_PART_TYPE ||
      message.partType === APPROVAL_DECISION_PART_TYPE ||
      message.partType === TOOL_INTENT_PART_TYPE)
  );
}
