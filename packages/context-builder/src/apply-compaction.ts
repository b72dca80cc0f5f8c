import {
  type Compaction,
  type ConversationMessage,
  compactionSummaryText,
  contentText,
  isIncludedInContext,
  type ModelUserMessage,
} from '@cairn/core';

/** A compaction record: a `system` message summarising the log range its `compaction` names. */
export type CompactionRecord = ConversationMessage & { compaction: Compaction };

/** Whether `message` is a compaction record (with or without a range). */
export function isCompactionMessage(message: ConversationMessage): boolean {
  return message.role === 'system' && message.partType === 'compaction';
}

/**
 * The record that applies: the latest (highest `seq`, so last in a log in seq order) visible
 * compaction record with a range. It supersedes every earlier one, so compression writes each new
 * summary to cover what the previous one did.
 */
export function latestCompaction(log: readonly ConversationMessage[]): CompactionRecord | undefined {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as ConversationMessage;
    if (isCompactionMessage(message) && message.compaction !== undefined && isIncludedInContext(message)) {
      return message as CompactionRecord;
    }
  }
  return undefined;
}

/**
 * The summary sent in place of the range, as a `user` message: providers accept user text
 * anywhere (a `system` one would be hoisted out of place), and core's header (the one compression
 * writes too) keeps the model from taking it for something the user just said.
 */
export function summaryMessage(record: CompactionRecord): ModelUserMessage {
  return { role: 'user', content: compactionSummaryText(contentText(record.content)) };
}

/** Whether the record's range covers `seq`. */
export function isCompacted(range: Compaction | undefined, seq: number | undefined): boolean {
  return range !== undefined && seq !== undefined && seq >= range.fromSeq && seq <= range.toSeq;
}
