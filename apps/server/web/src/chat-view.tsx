import { useMemo, useState } from 'preact/hooks';
import type { ApprovalControls } from './approvals/approval-card.js';
import { PendingApprovalHint } from './approvals/pending-approval-hint.js';
import { useApprovalReasons } from './approvals/use-approval-reasons.js';
import { Composer } from './composer.js';
import type { SessionHooks } from './conversation-view-state.js';
import { MessageList } from './message-list.js';
import { ModelPicker } from './model-picker.js';
import { recoverQueued } from './unsent-text.js';
import { useConversationSession } from './use-conversation-session.js';
import { useModels } from './use-models.js';

export interface ChatViewProps extends SessionHooks {
  conversationId: string;
  title: string;
}

/** The right pane: one conversation, live, with its send box. */
export function ChatView({ conversationId, title, ...hooks }: ChatViewProps) {
  // Before the send box reads its text: a message queued when the page was last left goes back into it.
  useState(() => recoverQueued(conversationId));
  const { state, session } = useConversationSession(conversationId, hooks);
  const models = useModels();
  session.model = models.chosen;
  const [restored, setRestored] = useState<{ text: string; files: readonly File[] }>();
  const reasons = useApprovalReasons(conversationId, state.messages);
  const approvals = useMemo<ApprovalControls>(
    () => ({ busy: state.turnRunning, reasons, decide: (id, body) => session.decide(id, body) }),
    [state.turnRunning, reasons, session],
  );
  return (
    <section class="chat" aria-label="Conversation">
      <header class="chat-header">
        <h1>{title}</h1>
        {state.turnRunning && (
          <span class="status" role="status">
            <span class="spinner" aria-hidden="true" /> Working…
          </span>
        )}
      </header>
      {state.error !== undefined && (
        <p class="error-banner" role="alert">
          {state.error}
        </p>
      )}
      <MessageList
        state={state}
        conversationId={conversationId}
        onEdit={(seq, text) => void session.edit(seq, text)}
        onRegenerate={(seq) => void session.regenerate(seq)}
        approvals={approvals}
      />
      <PendingApprovalHint messages={state.messages} />
      {state.queued !== undefined && (
        <div class="queued" role="status" aria-label="Queued message">
          <span class="queued-label">Queued, sent when the running turn ends:</span>
          <span class="queued-text">{state.queued.text}</span>
          {state.queued.files.map((name, index) => (
            <span key={index} class="attachment-file">
              📎 {name}
            </span>
          ))}
          <button type="button" onClick={() => setRestored(session.unqueue())}>
            Edit
          </button>
        </div>
      )}
      <Composer
        conversationId={conversationId}
        turnRunning={state.turnRunning}
        queued={state.queued !== undefined}
        restored={restored}
        disabled={state.loading}
        modelPicker={<ModelPicker models={models.models} chosen={models.chosen} onChoose={models.choose} />}
        onSend={(text, files) => void session.send(text, files)}
        onAbort={() => void session.abort()}
      />
    </section>
  );
}
