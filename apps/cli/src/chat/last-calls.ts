import { activeBranch, type ConversationMessage, type LedgerCall, readToolLedger } from '@cairn/core';

/** The last answer's calls without a result, and the messages from that answer on. */
export interface LastCalls {
  /** The answer that made the calls and every message after it (their records, the results so far). */
  messages: ConversationMessage[];
  unsettled: LedgerCall[];
}

const NONE: LastCalls = { messages: [], unsettled: [] };

/**
 * The calls of the conversation's last answer that still have no result, as `runtime.resume` sees
 * them: none once something was said after that answer (a new message settled them).
 */
export function lastCalls(log: readonly ConversationMessage[]): LastCalls {
  const { assistant, calls } = readToolLedger(log);
  if (assistant === undefined) return NONE;
  const path = activeBranch(log);
  const from = path.indexOf(assistant);
  const after = path.slice(from + 1);
  if (from < 0 || after.some((message) => message.role === 'user' || message.role === 'assistant'))
    return NONE;
  return { messages: path.slice(from), unsettled: calls.filter((call) => call.result === undefined) };
}

/**
 * Whether `runtime.resume` has work now: a call without a result that waits for no decision (one
 * decided before the process that asked was killed, one that never started or was interrupted).
 */
export function owesResume(log: readonly ConversationMessage[]): boolean {
  return lastCalls(log).unsettled.some(
    (call) => call.approval === undefined || call.approval.decision !== undefined,
  );
}
