import { randomUUID } from 'node:crypto';
import {
  type ApprovalDecision,
  type ApprovalEntry,
  type ApprovalStatus,
  approvalDecisionRecord,
  approvalStatus,
  assertSafeId,
  CairnError,
  type ConversationStore,
  isApprovalExpired,
  type JsonValue,
  readToolLedger,
  validateStandardSchema,
} from '@cairn/core';
import type { ToolRegistry } from '@cairn/loop';
import { claimRecord } from './claim-record.js';

/** An approval request of a conversation and where it stands. */
export interface ApprovalView extends ApprovalEntry {
  /** `pending`: waits for a decision; `expired`: its time ran out undecided; `decided`: see `decision`. */
  status: ApprovalStatus;
}

/** What `approvals.decide` stores. */
export interface DecideApprovalParams {
  conversationId: string;
  /** The request's id (`ApprovalEntry.id`). */
  approvalId: string;
  /** `edit`: approve, running the call with `input` instead of the model's. */
  decision: 'approve' | 'deny' | 'edit';
  input?: unknown;
  /** Why, shown to the model with a denial. */
  reason?: string;
  /** Who decides: `local`, `caller:<hash>`. Must be who the request is asked of, unless that is `any`. */
  decidedBy: string;
}

/** The approval requests of conversations, and their one decision each. */
export interface ApprovalsApi {
  /** Every request of the conversation, oldest first. */
  list(conversationId: string): Promise<ApprovalView[]>;
  /**
   * Stores the request's decision, once: a second decision, from anyone in any process, is
   * `APPROVAL_ALREADY_DECIDED` (`details.decision` is the first). `APPROVAL_NOT_FOUND` for no
   * such pending request, `APPROVAL_EXPIRED` once its time ran out (stored as `expired`),
   * `APPROVAL_FORBIDDEN` when it is asked of someone else, `TOOL_INVALID_INPUT` for an edit the tool
   * refuses. The call runs when the conversation is resumed (`runtime.resume`).
   */
  decide(params: DecideApprovalParams): Promise<ApprovalDecision>;
}

const alreadyDecided = (decision: ApprovalDecision) =>
  new CairnError(
    'APPROVAL_ALREADY_DECIDED',
    `This approval was decided already (${decision.outcome} by ${decision.decidedBy} at ${decision.decidedAt})`,
    { details: { decision } },
  );

export function createApprovalsApi(options: {
  store: ConversationStore;
  host: ToolRegistry;
  now: () => Date;
}): ApprovalsApi {
  const { store, host, now } = options;

  // Claims the request's one decision; the decision that holds the id when someone was first.
  async function claim(conversationId: string, decision: Omit<ApprovalDecision, 'kind' | 'claimId'>) {
    const claimId = randomUUID();
    const record = approvalDecisionRecord({ createdAt: decision.decidedAt }, { ...decision, claimId });
    const result = await claimRecord(
      store,
      conversationId,
      record,
      // Only this very record (a retried append that had landed) is ours: an identical decision
      // someone else stored at the same instant is not.
      (held) => held.approval?.kind === 'decision' && held.approval.claimId === claimId,
    );
    return {
      ours: result.claimed,
      decision: (result.claimed ? result.record : result.held).approval as ApprovalDecision,
    };
  }

  async function editedInput(toolName: string, input: unknown): Promise<JsonValue> {
    const tool = host.get(toolName);
    if (tool === undefined) return input as JsonValue;
    const checked = await validateStandardSchema(tool.input, input);
    if (checked.success) return input as JsonValue;
    throw new CairnError('TOOL_INVALID_INPUT', `The edited input does not fit ${toolName}'s schema`, {
      details: { issues: checked.issues.map((issue) => issue.message) },
    });
  }

  return {
    async list(conversationId) {
      assertSafeId('conversationId', conversationId);
      const at = now();
      return readToolLedger(await store.load(conversationId)).approvals.map((entry) => ({
        ...entry,
        status: approvalStatus(entry, at),
      }));
    },

    async decide(params) {
      const { conversationId, approvalId, decidedBy } = params;
      assertSafeId('conversationId', conversationId);
      assertSafeId('approvalId', approvalId);
      if (!['approve', 'deny', 'edit'].includes(params.decision)) {
        throw new CairnError(
          'INVALID_ARGUMENT',
          `decision must be approve, deny or edit, got ${String(params.decision)}`,
        );
      }
      const ledger = readToolLedger(await store.load(conversationId));
      const entry = ledger.approvals.find((candidate) => candidate.id === approvalId);
      if (entry === undefined) {
        throw new CairnError(
          'APPROVAL_NOT_FOUND',
          `Conversation ${conversationId} has no approval request ${approvalId}`,
        );
      }
      if (entry.decision !== undefined) throw alreadyDecided(entry.decision);
      const { askedOf } = entry.request;
      if (askedOf !== 'any' && askedOf !== decidedBy) {
        throw new CairnError('APPROVAL_FORBIDDEN', `This approval is asked of ${askedOf}, not ${decidedBy}`, {
          details: { askedOf },
        });
      }
      const decidedAt = now().toISOString();
      if (isApprovalExpired(entry.request, now())) {
        const expired = await claim(conversationId, {
          requestId: approvalId,
          outcome: 'expired',
          decidedBy: 'system',
          decidedAt,
        });
        if (expired.decision.outcome !== 'expired') throw alreadyDecided(expired.decision);
        throw new CairnError(
          'APPROVAL_EXPIRED',
          `This approval request expired at ${entry.request.expiresAt}`,
          {
            details: { decision: expired.decision },
          },
        );
      }
      const input =
        params.decision === 'edit' ? { input: await editedInput(entry.request.toolName, params.input) } : {};
      const reason = params.reason === undefined ? {} : { reason: params.reason };
      const result = await claim(conversationId, {
        requestId: approvalId,
        outcome: params.decision,
        decidedBy,
        decidedAt,
        ...input,
        ...reason,
      });
      if (!result.ours) throw alreadyDecided(result.decision);
      return result.decision;
    },
  };
}
