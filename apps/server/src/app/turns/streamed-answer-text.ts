import type { AgentOutput, ConversationMessage } from '@cairn/core';

/** The blocks of one kind (answer text or reasoning) streamed since the last stored message. */
class StreamedBlocks {
  private readonly blocks = new Map<string, string>();
  private readonly delta = new Set<string>();

  addDelta(id: string, delta: string): void {
    this.blocks.set(id, (this.blocks.get(id) ?? '') + delta);
    this.delta.add(id);
  }

  /** Notes a block's closing (or only) event; true when it says more than the deltas did. */
  addWhole(id: string, text: string): boolean {
    if (this.delta.has(id) && this.blocks.get(id) === text) return false;
    this.blocks.set(id, text);
    return true;
  }

  /** The text of the blocks in order; starts the next message's blocks. */
  take(): string {
    const text = [...this.blocks.values()].join('');
    this.blocks.clear();
    this.delta.clear();
    return text;
  }
}

/**
 * What a turn stream has already sent of the answer, so its text goes over the wire once: the text
 * and reasoning blocks since the last stored message, from their deltas (or the whole event of a
 * block that had none). A block's closing event repeats its deltas, and the assistant message
 * stored next repeats the blocks as `content` and `reasoning`: each is left out when it adds nothing.
 */
export class StreamedAnswerText {
  private readonly text = new StreamedBlocks();
  private readonly reasoning = new StreamedBlocks();

  /** Notes `event`; false when it only repeats text already sent (leave it out). */
  add(event: AgentOutput): boolean {
    switch (event.type) {
      case 'text_delta':
        this.text.addDelta(event.id, event.delta);
        return true;
      case 'reasoning_delta':
        this.reasoning.addDelta(event.id, event.delta);
        return true;
      case 'text':
        // Provider data on a text block's closing event is nowhere else: such an event still goes.
        return this.text.addWhole(event.id, event.text) || event.providerMetadata !== undefined;
      case 'reasoning':
        // A reasoning block's provider data (its signature) is on the stored message's reasoning part.
        return this.reasoning.addWhole(event.id, event.text);
      default:
        return true;
    }
  }

  /**
   * `message` as sent: an assistant message whose `content` (or whose reasoning) is exactly the
   * text (or reasoning) streamed since the previous message comes without it. Starts the next
   * message's blocks either way.
   */
  withoutStreamedText(message: ConversationMessage): ConversationMessage {
    const text = this.text.take();
    const reasoning = this.reasoning.take();
    if (message.role !== 'assistant') return message;
    const sameText = text !== '' && message.content === text;
    const sameReasoning =
      reasoning !== '' && message.reasoning?.map((part) => part.text).join('') === reasoning;
    if (!sameText && !sameReasoning) return message;
    const sent = { ...message };
    if (sameText) delete sent.content;
    if (sameReasoning) delete sent.reasoning;
    return sent;
  }
}
