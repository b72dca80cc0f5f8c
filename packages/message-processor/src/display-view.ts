import type { ConversationMessage } from '@cairn/core';

/**
 * The display view as a list a UI keeps: each display message is added at the end, except one
 * already shown (same id), which replaces the earlier one in place — a `tool_execution` shown
 * `running` or unfinished, then finished; a live text that grew (see `LiveDisplay`).
 */
export class DisplayView {
  readonly messages: ConversationMessage[] = [];
  private readonly shown = new Map<string, number>();

  /** Adds or replaces `message`; returns its index. */
  add(message: ConversationMessage): number {
    const at = this.shown.get(message.id);
    if (at !== undefined) {
      this.messages[at] = message;
      return at;
    }
    this.shown.set(message.id, this.messages.length);
    return this.messages.push(message) - 1;
  }
}
