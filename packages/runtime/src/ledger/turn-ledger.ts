import {
  type ApprovalDecision,
  type ApprovalEntry,
  approvalDecisionRecord,
  approvalEntryOf,
  approvalRequestRecord,
  type ConversationMessage,
  isApprovalExpired,
  type JsonValue,
  ledgerRecordIds,
  type OpenAIToolCall,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
  type ToolExecutionOptions,
  type ToolIntent,
  type ToolLedger,
  type ToolRunRefusal,
  type ToolRunRequest,
  toolIntentRecord,
} from '@cairn/core';
import type { ConversationWriter } from '../conversation-writer.js';
import { type SessionFields, withSession } from '../stored-messages.js';
import { answerOfDecision, outcomeOfAnswer } from './approval-answer.js';

/** How a runtime asks for approvals and who it says decided. */
export interface LedgerSettings {
  /** This process, in the intents it claims (`createProcessOwner`). */
  owner: string;
  /** Who may decide the requests it stores: `local`, `caller:<hash>`, `any`. */
  askedOf: string;
  /** How long a request waits for a decision; no expiry when absent. */
  approvalTtlMs?: number;
  /** A person asked at once, in this process (the CLI's prompt); their decision is stored too. */
  decider?: ToolExecutionOptions['approve'];
  /** The `decidedBy` of that person's decisions. Default `local`. */
  decidedBy?: string;
}

const CANCELLED = Symbol('cancelled');

// The in-process person's answer, or CANCELLED once the request's signal aborts first.
function askInProcess(
  decider: NonNullable<LedgerSettings['decider']>,
  request: ToolApprovalRequest,
): Promise<ToolApprovalAnswer | typeof CANCELLED> {
  const { signal } = request;
  if (signal === undefined) return Promise.resolve(decider(request));
  if (signal.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve, reject) => {
    const cancel = () => resolve(CANCELLED);
    signal.addEventListener('abort', cancel, { once: true });
    Promise.resolve(decider(request))
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', cancel));
  });
}

interface CallPlace {
  assistantMessageId: string;
  callIndex: number;
  call: OpenAIToolCall;
}

/**
 * The ledger of one turn (or one resume): the tool host's `approve` and `beforeRun` for the calls of
 * the assistant message it is told about. A request is stored before anyone is asked; a decision and
 * each attempt are claimed by their ids, so each happens once whatever runs at the same time.
 */
export interface TurnLedger {
  /** The assistant message whose calls run next (stored: its id names their records). */
  setAssistant(message: ConversationMessage): void;
  approve(request: ToolApprovalRequest): Promise<ToolApprovalAnswer>;
  /**
   * Claims the call's next attempt before it runs. An idempotent call's is claimed only when
   * `countIdempotent` (a resume runs it, maybe again): so a call that kills its process every time
   * is not run without end, while a turn's first run of one stores nothing.
   */
  beforeRun(
    request: ToolRunRequest,
    options?: { countIdempotent?: boolean },
  ): Promise<ToolRunRefusal | undefined>;
  /** The deterministic id of a call's result, once its assistant message is known. */
  resultId(toolCallId: string): string | undefined;
  /** Requests stored by this ledger (or found) that still wait for a decision. */
  readonly waiting: ApprovalEntry[];
  /**
   * Decides `superseded` each request put to the person in this process that got no answer (the
   * turn was cancelled with the question open), so none stays pending with no one asking it.
   */
  supersedeUnanswered(): Promise<void>;
}

export interface TurnLedgerOptions {
  writer: ConversationWriter;
  settings: LedgerSettings;
  now: () => Date;
  /** The session its records are written by, like every message of the turn. */
  session: SessionFields;
  /** What the store said before this turn (a resume): decisions and attempts so far. */
  known?: ToolLedger;
}

export function createTurnLedger({ writer, settings, now, session, known }: TurnLedgerOptions): TurnLedger {
  const places = new Map<string, CallPlace>();
  const decisions = new Map<string, ApprovalDecision>();
  const pendingRequests = new Map<string, ApprovalEntry>();
  const attempts = new Map<string, ToolIntent[]>();
  const waiting: ApprovalEntry[] = [];
  // Requests put to the person in this process that have no decision yet.
  const unanswered = new Set<string>();

  const setAssistant = (message: ConversationMessage) => {
    places.clear();
    message.tool_calls?.forEach((call, callIndex) => {
      places.set(call.id, { assistantMessageId: message.id, callIndex, call });
    });
  };
  if (known?.assistant !== undefined) {
    setAssistant(known.assistant);
    for (const { call, approval, intents } of known.calls) {
      attempts.set(call.id, [...intents]);
      if (approval?.decision !== undefined) decisions.set(approval.id, approval.decision);
      else if (approval !== undefined) pendingRequests.set(approval.id, approval);
    }
  }

  const createdAt = () => now().toISOString();

  // Stores a decision unless one is there: the one that is stored is the answer, whoever wrote it.
  async function decide(
    requestId: string,
    decision: Omit<ApprovalDecision, 'kind' | 'requestId' | 'decidedAt'>,
  ) {
    const record = withSession(
      approvalDecisionRecord({ createdAt: createdAt() }, { requestId, decidedAt: createdAt(), ...decision }),
      session,
    );
    const claim = await writer.claim(record, () => false);
    const stored = (claim.claimed ? claim.record : claim.held).approval as ApprovalDecision;
    decisions.set(requestId, stored);
    pendingRequests.delete(requestId);
    unanswered.delete(requestId);
    return stored;
  }

  async function approve(request: ToolApprovalRequest): Promise<ToolApprovalAnswer> {
    const place = places.get(request.toolCallId);
    // A call of no stored message cannot be asked about durably: only an in-process answer counts.
    if (place === undefined) return (await settings.decider?.(request)) ?? false;
    const requestId = ledgerRecordIds.request(place.assistantMessageId, place.callIndex);
    const decided = decisions.get(requestId);
    if (decided !== undefined) return answerOfDecision(decided);
    const pending = pendingRequests.get(requestId);
    if (pending !== undefined) {
      if (!isApprovalExpired(pending.request, now())) {
        waiting.push(pending);
        return 'pending';
      }
      return answerOfDecision(await decide(requestId, { outcome: 'expired', decidedBy: 'system' }));
    }
    const ttl = settings.approvalTtlMs;
    const [stored] = await writer.persist([
      withSession(
        approvalRequestRecord(
          { createdAt: createdAt() },
          {
            assistantMessageId: place.assistantMessageId,
            callIndex: place.callIndex,
            toolCallId: place.call.id,
            toolName: request.toolName,
            input: request.input as JsonValue,
            askedOf: settings.askedOf,
            ...(ttl === undefined ? {} : { expiresAt: new Date(now().getTime() + ttl).toISOString() }),
          },
        ),
        session,
      ),
    ]);
    const entry = approvalEntryOf(stored as ConversationMessage) as ApprovalEntry;
    unanswered.add(requestId);
    const answer = settings.decider === undefined ? 'pending' : await askInProcess(settings.decider, request);
    // The turn was cancelled with the question open: `supersedeUnanswered` decides it.
    if (answer === CANCELLED) return false;
    if (answer === 'pending') {
      pendingRequests.set(requestId, entry);
      waiting.push(entry);
      return 'pending';
    }
    const decision = await decide(requestId, {
      ...outcomeOfAnswer(answer),
      decidedBy: settings.decidedBy ?? 'local',
    });
    return answerOfDecision(decision);
  }

  async function beforeRun(
    request: ToolRunRequest,
    options: { countIdempotent?: boolean } = {},
  ): Promise<ToolRunRefusal | undefined> {
    const place = places.get(request.toolCallId);
    // An idempotent call needs no intent to be safe: one found without a result is run again.
    if (place === undefined || (request.idempotent && options.countIdempotent !== true)) return undefined;
    const before = attempts.get(request.toolCallId) ?? [];
    const intent: ToolIntent = {
      assistantMessageId: place.assistantMessageId,
      callIndex: place.callIndex,
      toolCallId: place.call.id,
      toolName: request.toolName,
      // The run's number: an idempotent call's first run stored no intent.
      attempt: before.length + (request.idempotent ? 2 : 1),
      input: request.input as JsonValue,
      idempotent: request.idempotent,
      owner: settings.owner,
    };
    const claim = await writer.claim(
      withSession(toolIntentRecord({ createdAt: createdAt() }, intent), session),
      (held) => held.toolIntent?.owner === settings.owner,
    );
    if (claim.claimed) {
      attempts.set(request.toolCallId, [...before, intent]);
      return undefined;
    }
    return {
      content: `${request.toolName} was not run here: another process (${claim.held.toolIntent?.owner}) runs attempt ${intent.attempt} of this call.`,
      isError: true,
      errorCode: 'TOOL_FAILED',
      interrupted: true,
    };
  }

  return {
    setAssistant,
    approve,
    beforeRun,
    resultId(toolCallId) {
      const place = places.get(toolCallId);
      return place === undefined
        ? undefined
        : ledgerRecordIds.result(place.assistantMessageId, place.callIndex);
    },
    waiting,
    async supersedeUnanswered() {
      for (const requestId of [...unanswered]) {
        // One the person answered `pending` waits for a decision from elsewhere: left as it is.
        if (pendingRequests.has(requestId)) continue;
        await decide(requestId, {
          outcome: 'superseded',
          decidedBy: 'system',
          reason: 'the turn was cancelled',
        });
      }
    },
  };
}
