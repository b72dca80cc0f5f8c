/**
 * Gives text and thinking blocks (which have no id of their own) the id `<message id>:<index>`,
 * the same whether the block arrives as `stream_event` deltas (which carry the index) or as an
 * `assistant` line (one block per line, in index order), so the closing event matches its deltas.
 * Only the current message is remembered, so memory stays flat however long the session.
 */
export class ClaudeCodeBlockIds {
  private assistantMessageId: string | undefined;
  private nextAssistantIndex = 0;
  private anonymousBlocks = 0;

  /** The id of the next block of an `assistant` line of message `messageId`. */
  nextAssistantBlock(messageId: string | undefined): string {
    if (messageId === undefined) return `block-${this.anonymousBlocks++}`;
    if (messageId !== this.assistantMessageId) {
      this.assistantMessageId = messageId;
      this.nextAssistantIndex = 0;
    }
    return blockId(messageId, this.nextAssistantIndex++);
  }
}

/** The id of block `index` of message `messageId`. */
export const blockId = (messageId: string, index: number): string => `${messageId}:${index}`;
