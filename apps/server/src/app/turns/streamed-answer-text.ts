import type { AgentOutput, ConversationMessage } from '@cairn/core';

/**
 * What a turn stream has already sent of the answer's text, so it goes over the wire once: the text
 * blocks since the last stored message, from their `text_delta`s (or a `text` event for a block that
 * had none). A block's closing `text` event repeats its deltas, and the assistant message stored next
 * repeats the blocks as `content`: both are left out when they add nothing.
 */
export class StreamedAnswerText {
  private readonly blocks = new Map<string, string>();
  private readonly delta = new Set<string>();

  /** Notes `event`; false when it only repeats text already sent (leave it out). */
  add(event: AgentOutput): boolean {
    if (event.type === 'text_delta') {
      this.blocks.set(event.id, (this.blocks.get(event.id) ?? '') + event.delta);
      this.delta.add(event.id);
    } else if (event.type === 'text') {
      // A block without deltas (a provider that does not stream) is sent whole, once.
      if (!this.delta.has(event.id) || this.blocks.get(event.id) !== event.text) {
        this.blocks.set(event.id, event.text);
        return true;
      }
      // Provider data on the closing event is nowhere else: such an event still goes.
      return event.providerMetadata !== undefined;
    }
    return true;
  }

  /**
   * `message` as sent: an assistant message whose `content` is exactly the text streamed since the
   * previous message comes without it. Starts the next message's text either way.
   */
  withoutStreamedText(message: ConversationMessage): ConversationMessage {
    const text = [...this.blocks.values()].join('');
    this.blocks.clear();
    this.delta.clear();
    if (message.role !== 'assistant' || text === '' || message.content !== text) return message;
    const { content: _content, ...rest } = message;
    return rest;
  }
}
