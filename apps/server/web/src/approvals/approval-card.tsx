import type { ToolExecutionMetadata } from '@cairn/core';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiRequestError } from '../api-client.js';
import { CodeBlock } from '../code-block.js';
import type { ApprovalDecisionBody } from './approval-api.js';
import { DenyForm, EditInputForm } from './approval-forms.js';
import {
  alreadyDecidedText,
  describeInput,
  type ExecutionApproval,
  expiryText,
  isExpired,
  partyName,
} from './approval-text.js';
import { useRenderAt } from './use-render-at.js';

/** What the open conversation lets its cards do about approvals. */
export interface ApprovalControls {
  /** A turn runs: a decision waits for it to end. */
  busy: boolean;
  /** Posts the decision and follows the turn it continues; the server's refusal, if it refused. */
  decide(approvalId: string, body: ApprovalDecisionBody): Promise<ApiRequestError | undefined>;
  /** Reasons given with decisions, by approval id (the display view does not carry them). */
  reasons: ReadonlyMap<string, string>;
}

/** The server's refusal of a decision, kept by the execution's card once it is decided. */
export type ApprovalRefusal = Pick<ApiRequestError, 'code' | 'message'>;

export const ALREADY_DECIDED = 'APPROVAL_ALREADY_DECIDED';

/** The element id of a waiting request's card: the hint by the send box goes to it. */
export const approvalElementId = (approvalId: string) => `approval-${approvalId}`;

const POSTING: Record<ApprovalDecisionBody['decision'], string> = {
  approve: 'Allowing…',
  deny: 'Denying…',
  edit: 'Allowing the edited input…',
};

/**
 * A tool call waiting for a person: what it would run, who may decide until when, and Allow, Deny
 * (with a reason) or Edit (its input as JSON). A decision continues the turn, followed like a sent message.
 */
export function ApprovalCard({
  execution,
  approval,
  controls,
  refusal,
  onRefused,
}: {
  execution: ToolExecutionMetadata;
  approval: ExecutionApproval;
  controls: ApprovalControls | undefined;
  refusal: ApprovalRefusal | undefined;
  onRefused(refusal: ApprovalRefusal | undefined): void;
}) {
  const [mode, setMode] = useState<'choose' | 'deny' | 'edit'>('choose');
  const [posting, setPosting] = useState<ApprovalDecisionBody['decision']>();
  // Set at once (state waits for the next render): a second click never posts a second decision.
  const inFlight = useRef(false);
  // Rendered again when its time runs out: a card left open never offers a dead choice.
  useRenderAt(approval.expiresAt === undefined ? undefined : Date.parse(approval.expiresAt));
  const expired = isExpired(approval);
  const input = describeInput(execution);
  const disabled = posting !== undefined || controls === undefined || controls.busy;
  const decide = async (body: ApprovalDecisionBody) => {
    if (inFlight.current || controls === undefined || controls.busy) return;
    inFlight.current = true;
    setPosting(body.decision);
    onRefused(undefined);
    try {
      const refused = await controls.decide(approval.id, body);
      if (refused !== undefined) onRefused({ code: refused.code, message: refused.message });
    } finally {
      inFlight.current = false;
      setPosting(undefined);
    }
  };
  const status =
    posting !== undefined
      ? POSTING[posting]
      : expired
        ? 'Expired: no decision came in time'
        : 'Waiting for your approval';
  // Back from a form, the focus goes to the button that opened it (the form is gone).
  const actions = useRef<HTMLDivElement>(null);
  const returnTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (mode !== 'choose' || returnTo.current === undefined) return;
    actions.current?.querySelector<HTMLButtonElement>(`[data-opens="${returnTo.current}"]`)?.focus();
    returnTo.current = undefined;
  }, [mode]);
  const back = () => {
    returnTo.current = mode;
    setMode('choose');
  };
  return (
    <article
      class="tool-card approval"
      id={approvalElementId(approval.id)}
      tabIndex={-1}
      aria-label={`Approval for ${execution.toolName}`}
    >
      <p class="approval-status" aria-live="polite">
        {posting === undefined ? (
          <span class="tool-mark awaiting" aria-hidden="true">
            ?
          </span>
        ) : (
          <span class="spinner" aria-hidden="true" />
        )}
        <strong>{status}</strong>
      </p>
      <p class="approval-what">
        The model asks to run <code>{execution.toolName}</code>:
      </p>
      <CodeBlock label={input.label}>{input.text}</CodeBlock>
      <p class="approval-meta">
        Asked of {partyName(approval.askedOf)}
        {approval.expiresAt !== undefined && ` · ${expiryText(approval.expiresAt)}`}
      </p>
      {!expired && mode === 'choose' && (
        <div class="approval-actions" ref={actions}>
          <button
            type="button"
            class="approve"
            disabled={disabled}
            onClick={() => void decide({ decision: 'approve' })}
          >
            Allow
          </button>
          <button
            type="button"
            class="deny"
            data-opens="deny"
            disabled={disabled}
            onClick={() => setMode('deny')}
          >
            Deny
          </button>
          <button type="button" data-opens="edit" disabled={disabled} onClick={() => setMode('edit')}>
            Edit
          </button>
        </div>
      )}
      {!expired && mode === 'deny' && (
        <DenyForm
          disabled={disabled}
          onCancel={back}
          onDeny={(reason) =>
            void decide(reason === '' ? { decision: 'deny' } : { decision: 'deny', reason })
          }
        />
      )}
      {!expired && mode === 'edit' && (
        <EditInputForm
          initial={JSON.stringify(execution.input, null, 2)}
          disabled={disabled}
          onCancel={back}
          onAllow={(edited) => void decide({ decision: 'edit', input: edited })}
        />
      )}
      {refusal !== undefined && (
        <p class="approval-error" role="alert">
          {refusal.code === ALREADY_DECIDED ? alreadyDecidedText(approval, refusal.message) : refusal.message}
        </p>
      )}
    </article>
  );
}
