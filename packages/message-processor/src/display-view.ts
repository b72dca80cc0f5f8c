import type { ConversationMessage } from '@cairn/core';

/**
 * The display view as a list a UI keeps: each display message is added at the end, except a
 * `tool_execution` already shown (same id), which replaces the earlier one in place — a result
 * that came after its call was shown as unfinished.
 */
export class DisplayView {
  readonly messages: ConversationMessage[] = [];
  private readonly executions = new Map<string, number>();

  /** Adds or replaces `message`; returns its index. */
  add(message: ConversationMessage): number {
    if (message.partType !== 'tool_execution') return this.messages.push(message) - 1;
    const at = this.executions.get(message.id);
    if (at !== undefined) {
      this.messages[at] = message;
      return at;
    }
    this.executions.set(message.id, this.messages.length);
    return this.messages.push(message) - 1;
  }
}
