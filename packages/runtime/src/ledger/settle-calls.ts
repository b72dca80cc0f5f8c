import {
  type AgentOutput,
  type ApprovalDecision,
  type ApprovalEntry,
  approvalDecisionRecord,
  type ConversationMessage,
  contentText,
  definedFields,
  isApprovalExpired,
  type LedgerCall,
  ledgerRecordIds,
  type ToolCallResult,
  type ToolExecutionOptions,
  type ToolLedger,
  unsettledCalls,
} from '@cairn/core';
import type { ToolRegistry } from '@cairn/loop';
import type { ConversationWriter } from '../conversation-writer.js';
import { type SessionFields, storedToolMessage, withSession } from '../stored-messages.js';
import { answerOfDecision } from './approval-answer.js';
import type { TurnLedger } from './turn-ledger.js';

interface ResultFields {
  call: LedgerCall;
  assistantMessageId: string;
  createdAt: string;
  session: SessionFields;
}

// A result the ledger writes itself, without running the tool.
function ledgerResult(
  { call, assistantMessageId, createdAt, session }: ResultFields,
  content: string,
  interrupted = false,
): ConversationMessage {
  return storedToolMessage(
    {
      id: ledgerRecordIds.result(assistantMessageId, call.index),
      createdAt,
      turn: 0,
      role: 'tool',
      tool_call_id: call.call.id,
      content,
      toolName: call.call.function.name,
      duration: 0,
      isError: true,
      ...(interrupted ? { interrupted } : {}),
    },
    session,
  );
}

/**
 * How many times a resume runs an idempotent call again after it was interrupted: one that stops its
 * process every time (runs out of memory, say) would otherwise be run on every restart.
 */
export const MAX_IDEMPOTENT_RERUNS = 3;

const notRetriedText = (name: string) =>
  `${name} was interrupted while it ran (the process running it stopped) and was not run again: it is not idempotent, so it may or may not have taken effect. Check before calling it again.`;

const supersededRunText = (name: string) =>
  `${name} was interrupted while it ran (the process running it stopped) and was not run again: a new message came first.`;

const gaveUpText = (name: string, runs: number) =>
  `${name} was interrupted every time it ran (${runs} runs: the process running it stopped each time) and was not run again.`;

// The result of an interrupted call that is not run again, or undefined when it may run (again).
function interruptedText(call: LedgerCall, idempotent: boolean): string | undefined {
  const name = call.call.function.name;
  if (call.intents.length === 0) return undefined;
  if (!idempotent) return notRetriedText(name);
  // Its first run stored no intent; each run again from a resume did.
  return call.intents.length >= MAX_IDEMPOTENT_RERUNS ? gaveUpText(name, call.intents.length + 1) : undefined;
}

const notRunText = (name: string, decision: ApprovalDecision | undefined) => {
  if (decision === undefined || decision.outcome === 'approve' || decision.outcome === 'edit')
    return `${name} was not run: a new message came before it ran.`;
  const answer = answerOfDecision(decision);
  const reason = typeof answer === 'object' && !answer.approved ? answer.reason : undefined;
  return `The user did not approve running ${name}${reason === undefined ? '.' : `: ${reason}.`}`;
};

/**
 * What a new message settles before it is stored, in the same append: nothing runs. An undecided
 * request gets a `superseded` decision (`expired` when its time ran out) (here, and on any other branch); each call of the last answer
 * without a result gets one saying why it did not run, or that it was interrupted. So the user's
 * words are stored at once, and the log stays a complete call/result protocol.
 */
export function settlementForInput(
  ledger: ToolLedger,
  log: readonly ConversationMessage[],
  fields: { createdAt: string; session: SessionFields },
): ConversationMessage[] {
  const records: ConversationMessage[] = [];
  const superseded = new Map<string, ApprovalDecision>();
  const now = new Date(fields.createdAt);
  for (const entry of ledger.approvals) {
    if (entry.decision !== undefined) continue;
    const decision: ApprovalDecision = {
      kind: 'decision',
      requestId: entry.id,
      // A request whose time ran out is expired, whatever came after.
      outcome: isApprovalExpired(entry.request, now) ? 'expired' : 'superseded',
      decidedBy: 'system',
      decidedAt: fields.createdAt,
    };
    const { kind: _kind, ...rest } = decision;
    records.push(withSession(approvalDecisionRecord({ createdAt: fields.createdAt }, rest), fields.session));
    superseded.set(entry.id, decision);
  }
  const assistantMessageId = ledger.assistant?.id as string;
  for (const call of unsettledCalls(ledger, log)) {
    const name = call.call.function.name;
    const at = { call, assistantMessageId, ...fields };
    if (call.intents.length > 0) {
      // Nothing runs before the user's words are stored: an interrupted call is answered as such.
      const idempotent = call.intents.every((intent) => intent.idempotent);
      records.push(ledgerResult(at, idempotent ? supersededRunText(name) : notRetriedText(name), true));
      continue;
    }
    const decision = call.approval?.decision ?? (call.approval && superseded.get(call.approval.id));
    records.push(ledgerResult(at, notRunText(name, decision)));
  }
  return records;
}

export interface SettleCallsOptions {
  ledger: ToolLedger;
  log: readonly ConversationMessage[];
  turnLedger: TurnLedger;
  host: ToolRegistry;
  execution: ToolExecutionOptions;
  writer: ConversationWriter;
  session: SessionFields;
  now: () => Date;
}

/**
 * Continues the calls of the last answer that have no result, as the ledger says, one after another:
 * decided ones run (or are denied), those that never started run, an interrupted idempotent one runs
 * again, an interrupted other one gets an "interrupted, not retried" result. A request still
 * undecided waits (an expired one is decided `expired`). Returns the stored messages and what waits.
 */
export async function settleCalls(
  options: SettleCallsOptions,
): Promise<{ stored: ConversationMessage[]; waiting: ApprovalEntry[] }> {
  const { ledger, log, turnLedger, host, execution, writer, session, now } = options;
  const stored: ConversationMessage[] = [];
  const assistantMessageId = ledger.assistant?.id as string;
  for (const call of unsettledCalls(ledger, log)) {
    const name = call.call.function.name;
    const interrupted = interruptedText(call, host.get(name)?.idempotent === true);
    if (interrupted !== undefined) {
      const createdAt = now().toISOString();
      const result = ledgerResult({ call, assistantMessageId, createdAt, session }, interrupted, true);
      stored.push(...(await writer.persist([result])));
      continue;
    }
    const result = await host.execute(call.call, {
      ...execution,
      approve: turnLedger.approve,
      beforeRun: (request) => turnLedger.beforeRun(request, { countIdempotent: true }),
    });
    if (result.pending) continue;
    // Stamped when the tool finished: after its intent, which was stored before it ran.
    const doneAt = now().toISOString();
    writer.emit(toolResultEvent(result, doneAt));
    const message = storedToolMessage(
      {
        id: ledgerRecordIds.result(assistantMessageId, call.index),
        createdAt: doneAt,
        turn: 0,
        role: 'tool',
        tool_call_id: call.call.id,
        content: result.content,
        toolName: result.toolName,
        duration: result.durationMs,
        isError: result.isError,
        ...definedFields({ errorCode: result.errorCode, structured: result.structured }),
        ...(result.interrupted ? { interrupted: true } : {}),
      },
      session,
    );
    stored.push(...(await writer.persist([message])));
  }
  return { stored, waiting: turnLedger.waiting };
}

// The event a live view shows the call's result by, as the loop sends it for the calls it runs.
function toolResultEvent(result: ToolCallResult, timestamp: string): AgentOutput {
  return {
    type: 'tool_result',
    timestamp,
    toolUseId: result.toolCallId,
    toolName: result.toolName,
    output: contentText(result.content, { placeholders: true }),
    ...(Array.isArray(result.content) ? { content: result.content } : {}),
    isError: result.isError,
    durationMs: result.durationMs,
    ...(result.structured === undefined ? {} : { structured: result.structured as never }),
  };
}
