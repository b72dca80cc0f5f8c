import type { ConversationMessage } from '@cairn/core';
import type { MessageActions } from './message-actions.js';

export interface ActionHandlers {
  busy: boolean;
  /** Send `text` in place of the user message at `seq`. */
  edit(seq: number, text: string): void;
  /** Answer the user message at `seq` again. */
  regenerate(seq: number): void;
}

const isReply = (message: ConversationMessage) =>
  message.role === 'assistant' && (message.partType === undefined || message.partType === 'content');

/**
 * The actions of each message of the display view, by its place: every user message with plain text
 * may be edited; the last answer may be regenerated, and a failure that ends the conversation retried
 * — both answer again the user message they follow.
 */
export function placeMessageActions(
  messages: readonly ConversationMessage[],
  handlers: ActionHandlers,
): MessageActions[] {
  const { busy } = handlers;
  const lastReply = messages.findLastIndex(isReply);
  let askedSeq: number | undefined;
  return messages.map((message, index) => {
    const actions: MessageActions = { busy };
    if (message.role === 'user' && message.seq !== undefined) {
      const { seq } = message;
      askedSeq = seq;
      if (typeof message.content === 'string') actions.edit = (text) => handlers.edit(seq, text);
      return actions;
    }
    const asked = askedSeq;
    if (asked === undefined) return actions;
    if (index === lastReply) actions.regenerate = () => handlers.regenerate(asked);
    if (message.partType === 'error' && index === messages.length - 1) {
      actions.retry = () => handlers.regenerate(asked);
    }
    return actions;
  });
}
