import type { ConversationMessage } from '@cairn/core';
import { CopyButton } from './copy-button.js';
import { messageTime } from './format-time.js';

/** What a message offers, where it applies: set by the list from the message's place in it. */
export interface MessageActions {
  /** A turn runs: nothing may start another. */
  busy: boolean;
  /** The user message's text, sent again in its place. */
  edit?: (text: string) => void;
  /** A new answer to the user message before this reply (the old one kept in the log). */
  regenerate?: () => void;
  /** After a failure: the user message answered once more. */
  retry?: () => void;
}

const count = new Intl.NumberFormat();

// "claude-sonnet · 1,204 in · 88 out": which model wrote an answer, and what its call cost.
function answerFacts(message: ConversationMessage): string {
  const model = message.providerMetadata?.cairn?.model;
  const facts = typeof model === 'string' ? [model] : [];
  if (message.usage !== undefined) {
    facts.push(
      `${count.format(message.usage.inputTokens)} in`,
      `${count.format(message.usage.outputTokens)} out`,
    );
  }
  return facts.join(' · ');
}

/** A message's line under its bubble: when it was written, the model and tokens of an answer, and its actions. */
export function MessageFooter({
  message,
  text,
  actions,
  onEdit,
}: {
  message: ConversationMessage;
  /** What Copy copies. */
  text: string;
  actions: MessageActions | undefined;
  /** Opens the message's editor (when it may be edited). */
  onEdit?: () => void;
}) {
  const time = messageTime(message.createdAt);
  const facts = message.role === 'assistant' ? answerFacts(message) : '';
  const busy = actions?.busy ?? false;
  return (
    <footer class="message-footer">
      {time.short !== '' && (
        <time dateTime={message.createdAt} title={time.long}>
          {time.short}
        </time>
      )}
      {message.branchFrom !== undefined && <span class="message-fact">edited · earlier version kept</span>}
      {facts !== '' && <span class="message-fact">{facts}</span>}
      {text !== '' && <CopyButton text={text} label="Copy message" class="message-action" />}
      {onEdit !== undefined && (
        <button type="button" class="message-action" disabled={busy} onClick={onEdit}>
          Edit
        </button>
      )}
      {actions?.regenerate !== undefined && (
        <button type="button" class="message-action" disabled={busy} onClick={actions.regenerate}>
          Regenerate
        </button>
      )}
      {actions?.retry !== undefined && (
        <button type="button" class="message-action" disabled={busy} onClick={actions.retry}>
          Retry
        </button>
      )}
    </footer>
  );
}
