import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { ApprovalControls } from './approvals/approval-card.js';
import type { ConversationViewState } from './conversation-view-state.js';
import { MessageItem, StreamingReply, UserMessage } from './message-item.js';
import { type ActionHandlers, placeMessageActions } from './place-message-actions.js';
import { RunningToolCard } from './tool-execution-card.js';

// Within this many pixels of the bottom the list follows new content; further up the reader is reading.
const FOLLOW_MARGIN_PX = 80;

/** The conversation: stored messages, then what the running turn has not stored yet. */
export function MessageList({
  state,
  conversationId,
  onEdit,
  onRegenerate,
  approvals,
}: {
  state: ConversationViewState;
  conversationId: string;
  onEdit: ActionHandlers['edit'];
  onRegenerate: ActionHandlers['regenerate'];
  approvals?: ApprovalControls;
}) {
  const list = useRef<HTMLDivElement>(null);
  // The latest handlers, so the actions change with the messages only (not with each streamed delta).
  const handlers = useRef({ onEdit, onRegenerate });
  handlers.current = { onEdit, onRegenerate };
  const actions = useMemo(
    () =>
      placeMessageActions(state.messages, {
        busy: state.turnRunning,
        edit: (seq, text) => handlers.current.onEdit(seq, text),
        regenerate: (seq) => handlers.current.onRegenerate(seq),
      }),
    [state.messages, state.turnRunning],
  );
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = list.current;
    if (element !== null && following.current) element.scrollTop = element.scrollHeight;
  }, [state.messages, state.draft, state.runningTools, state.sentText]);
  const onScroll = () => {
    const element = list.current;
    if (element === null) return;
    following.current = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_MARGIN_PX;
  };
  const empty = state.messages.length === 0 && state.sentText === undefined;
  return (
    <div class="messages" role="log" aria-label="Messages" ref={list} onScroll={onScroll}>
      <div class="messages-column">
        {state.loading && <p class="hint">Loading…</p>}
        {!state.loading && empty && (
          <p class="hint">
            {state.deleted
              ? 'This conversation was deleted. Send a message to start it again.'
              : 'Send a message to start the conversation.'}
          </p>
        )}
        {actions.map((messageActions, index) => {
          const message = state.messages[index] as (typeof state.messages)[number];
          return (
            <MessageItem
              key={message.id}
              message={message}
              conversationId={conversationId}
              actions={messageActions}
              approvals={approvals}
            />
          );
        })}
        {state.sentText !== undefined && (
          <UserMessage pending>
            {state.sentText}
            {state.sentFiles.map((name, index) => (
              <span key={index} class="attachment-file">
                📎 {name}
              </span>
            ))}
          </UserMessage>
        )}
        {state.draft !== '' && <StreamingReply text={state.draft} />}
        {state.runningTools.map((tool) => (
          <RunningToolCard key={tool.id} toolName={tool.toolName} />
        ))}
      </div>
    </div>
  );
}
