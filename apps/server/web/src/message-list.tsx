import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ConversationViewState } from './conversation-session.js';
import { MessageItem, StreamingReply, UserMessage } from './message-item.js';
import { RunningToolCard } from './tool-execution-card.js';

// Within this many pixels of the bottom the list follows new content; further up the reader is reading.
const FOLLOW_MARGIN_PX = 80;

/** The conversation: stored messages, then what the running turn has not stored yet. */
export function MessageList({
  state,
  conversationId,
}: {
  state: ConversationViewState;
  conversationId: string;
}) {
  const list = useRef<HTMLDivElement>(null);
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
        {state.messages.map((message) => (
          <MessageItem key={message.id} message={message} conversationId={conversationId} />
        ))}
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
