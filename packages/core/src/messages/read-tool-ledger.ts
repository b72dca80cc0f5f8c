import { activeBranch } from './active-branch.js';
import { type ConversationMessage, isToolCallMessage } from './conversation-message.js';
import type { ApprovalDecision, ApprovalRequest, ToolIntent } from './ledger-schemas.js';
import type { OpenAIToolCall } from './openai-chat-message.js';

/** An approval request as the log holds it, with its decision once there is one. */
export interface ApprovalEntry {
  /** The request record's message id: what a decision names. */
  id: string;
  /** The request record's seq. */
  seq?: number;
  requestedAt: string;
  request: ApprovalRequest;
  decision?: ApprovalDecision;
}

/** One call of the ledger's assistant message and every record about it. */
export interface LedgerCall {
  /** The call's place in the assistant message's `tool_calls`. */
  index: number;
  call: OpenAIToolCall;
  /** Its approval request, when the tool asked for one. */
  approval?: ApprovalEntry;
  /** Its runs so far, oldest first. */
  intents: ToolIntent[];
  /** Its `tool` message, once there is one. */
  result?: ConversationMessage;
}

/** Where the last tool calls of a conversation stand. */
export interface ToolLedger {
  /** The last assistant message on the active branch that called tools; undefined when none did. */
  assistant?: ConversationMessage;
  calls: LedgerCall[];
  /** Every approval request of the log, oldest first, each with its decision when decided. */
  approvals: ApprovalEntry[];
}

/** Where a request stands: `pending` (waits for a decision), `expired` (its time ran out undecided), `decided`. */
export type ApprovalStatus = 'pending' | 'expired' | 'decided';

/** The status of an approval entry at `now`. */
export function approvalStatus(entry: ApprovalEntry, now: Date): ApprovalStatus {
  if (entry.decision !== undefined) return 'decided';
  return isApprovalExpired(entry.request, now) ? 'expired' : 'pending';
}

/**
 * The calls of the ledger's message still without a result, when nothing was said after it. A
 * question or an answer after the calls (an older log, from before the ledger) leaves them to the
 * context builder's repair: they belong to a turn the conversation has moved on from.
 */
export function unsettledCalls(ledger: ToolLedger, log: readonly ConversationMessage[]): LedgerCall[] {
  const { assistant } = ledger;
  if (assistant === undefined) return [];
  const path = activeBranch(log);
  const after = path.slice(path.indexOf(assistant) + 1);
  if (after.some((message) => message.role === 'user' || message.role === 'assistant')) return [];
  return ledger.calls.filter((call) => call.result === undefined);
}

/** True when the request has an expiry and `now` is past it. */
export function isApprovalExpired(request: Pick<ApprovalRequest, 'expiresAt'>, now: Date): boolean {
  return request.expiresAt !== undefined && Date.parse(request.expiresAt) <= now.getTime();
}

/**
 * Reads the ledger from a conversation log (seq order, as the store loads it): the calls of the last
 * assistant message on the active branch that called tools, each with its approval, its intents and
 * its result. Records about calls of other messages (an abandoned branch) do not count for it. Pure:
 * every process reads the same ledger from the same log, which is how a turn continues anywhere.
 */
export function readToolLedger(log: readonly ConversationMessage[]): ToolLedger {
  const approvals = readApprovals(log);
  const path = activeBranch(log);
  let at = path.length - 1;
  while (at >= 0 && !isToolCallMessage(path[at] as ConversationMessage)) at--;
  if (at < 0) return { calls: [], approvals };
  const assistant = path[at] as ConversationMessage & { tool_calls: OpenAIToolCall[] };
  const calls: LedgerCall[] = assistant.tool_calls.map((call, index) => ({ index, call, intents: [] }));
  for (const entry of approvals) {
    if (entry.request.assistantMessageId !== assistant.id) continue;
    const call = calls[entry.request.callIndex];
    if (call !== undefined) call.approval = entry;
  }
  for (const message of log) {
    const intent = message.toolIntent;
    if (intent === undefined || intent.assistantMessageId !== assistant.id) continue;
    calls[intent.callIndex]?.intents.push(intent);
  }
  const byCallId = new Map(calls.map((call) => [call.call.id, call]));
  for (const message of path.slice(at + 1)) {
    if (message.role !== 'tool' || message.tool_call_id === undefined) continue;
    const call = byCallId.get(message.tool_call_id);
    if (call !== undefined && call.result === undefined) call.result = message;
  }
  for (const call of calls) call.intents.sort((a, b) => a.attempt - b.attempt);
  return { assistant, calls, approvals };
}

/** The approval entry of a stored request record (undecided); undefined for any other message. */
export function approvalEntryOf(message: ConversationMessage): ApprovalEntry | undefined {
  const record = message.approval;
  if (record?.kind !== 'request') return undefined;
  return {
    id: message.id,
    requestedAt: message.createdAt,
    request: record,
    ...(message.seq === undefined ? {} : { seq: message.seq }),
  };
}

// Every request of the log with its decision: the first decision record naming it (there is one).
function readApprovals(log: readonly ConversationMessage[]): ApprovalEntry[] {
  const entries = new Map<string, ApprovalEntry>();
  for (const message of log) {
    const record = message.approval;
    const entry = approvalEntryOf(message);
    if (entry !== undefined) {
      entries.set(message.id, entry);
    } else if (record?.kind === 'decision') {
      const entry = entries.get(record.requestId);
      if (entry !== undefined && entry.decision === undefined) entry.decision = record;
    }
  }
  return [...entries.values()];
}
