import type { ConversationMessage } from '@cairn/core';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ApprovalControls } from './approvals/approval-card.js';
import { CodeBlock } from './code-block.js';
import { MarkdownView } from './markdown/markdown-view.js';
import { type MessageActions, MessageFooter } from './message-actions.js';
import { MessageEditor } from './message-editor.js';
import { MessageParts } from './message-parts.js';
import { ToolExecutionCard } from './tool-execution-card.js';

// Text alone, for the bubbles that show text only (thinking, errors, summaries, tool output).
function messageText({ content }: ConversationMessage): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .map((part) => (part.type === 'text' ? String(part.text) : `[${part.type}]`))
    .join('\n');
}

/** One message of the display view, drawn by what it is, with its line of time, facts and actions. */
export function MessageItem({
  message,
  conversationId,
  actions,
  approvals,
}: {
  message: ConversationMessage;
  conversationId: string;
  actions?: MessageActions;
  /** What a tool call waiting for approval offers. */
  approvals?: ApprovalControls | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const text = messageText(message);
  if (message.partType === 'tool_execution' && message.toolExecution !== undefined) {
    return <ToolExecutionCard execution={message.toolExecution} approvals={approvals} />;
  }
  if (message.partType === 'thinking') {
    return (
      <details class="thinking">
        <summary>Thinking</summary>
        <p>{text}</p>
      </details>
    );
  }
  if (message.partType === 'error') {
    return (
      <ErrorMessage text={text} code={message.errorCode}>
        <MessageFooter message={message} text="" actions={actions} />
      </ErrorMessage>
    );
  }
  if (message.role === 'user') {
    const { edit } = actions ?? {};
    if (editing && edit !== undefined) {
      return (
        <UserMessage>
          <MessageEditor
            initial={text}
            onCancel={() => setEditing(false)}
            onSend={(edited) => {
              setEditing(false);
              edit(edited);
            }}
          />
        </UserMessage>
      );
    }
    return (
      <UserMessage
        footer={
          <MessageFooter
            message={message}
            text={text}
            actions={actions}
            {...(edit === undefined ? {} : { onEdit: () => setEditing(true) })}
          />
        }
      >
        <MessageParts conversationId={conversationId} content={message.content} />
      </UserMessage>
    );
  }
  if (message.role === 'system') {
    return (
      <article class="message system" aria-label="Summary of earlier messages">
        <div class="bubble">{text}</div>
      </article>
    );
  }
  if (message.role === 'tool') {
    return (
      <article class="message tool" aria-label="Tool result">
        {typeof message.content === 'string' ? (
          <CodeBlock label="Tool output">{text}</CodeBlock>
        ) : (
          <MessageParts conversationId={conversationId} content={message.content} />
        )}
      </article>
    );
  }
  if (text === '') return null;
  return (
    <article class="message assistant" aria-label="Assistant reply">
      <div class="bubble">
        {typeof message.content === 'string' ? (
          <MarkdownView text={text} />
        ) : (
          <MessageParts conversationId={conversationId} content={message.content} markdown />
        )}
      </div>
      <MessageFooter message={message} text={text} actions={actions} />
    </article>
  );
}

export function UserMessage({
  children,
  pending = false,
  footer,
}: {
  children: ComponentChildren;
  pending?: boolean;
  footer?: ComponentChildren;
}) {
  return (
    <article class={`message user${pending ? ' pending' : ''}`} aria-label="Your message">
      <div class="bubble">{children}</div>
      {footer}
    </article>
  );
}

function ErrorMessage({
  text,
  code,
  children,
}: {
  text: string;
  code: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <article class="message error" aria-label="Error">
      <div class="bubble">
        {text}
        {code !== undefined && <code class="error-code">{code}</code>}
      </div>
      {children}
    </article>
  );
}

/** The reply as the model streams it, before it is stored. */
export function StreamingReply({ text }: { text: string }) {
  return (
    <article class="message assistant streaming" aria-label="Streaming reply" aria-busy="true">
      <div class="bubble">
        <MarkdownView text={text} />
        <span class="cursor" aria-hidden="true" />
      </div>
    </article>
  );
}
