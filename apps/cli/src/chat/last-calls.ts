import {
  activeBranch,
  type ConversationMessage,
  type LedgerCall,
  readToolLedger,
  unsettledCalls,
} from '@cairn/core';

/** The last answer's calls without a result, and the messages from that answer on. */
export interface LastCalls {
  /** The answer that made the calls and every message after it (their records, the results so far). */
  messages: ConversationMessage[];
  unsettled: LedgerCall[];
}

/**
 * The calls of the conversation's last answer that still have no result, as `runtime.resume` sees
 * them (`unsettledCalls`: none once something was said after that answer), and the messages from it on.
 */
export function lastCalls(log: readonly ConversationMessage[]): LastCalls {
  const ledger = readToolLedger(log);
  const unsettled = unsettledCalls(ledger, log);
  if (unsettled.length === 0 || ledger.assistant === undefined) return { messages: [], unsettled: [] };
  const path = activeBranch(log);
  return { messages: path.slice(path.indexOf(ledger.assistant)), unsettled };
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
