import {
  activeBranch,
  type ConversationMessage,
  DEFAULT_MAX_TOOL_RESULT_CHARS,
  isIncludedInContext,
  type ModelMessage,
} from '@cairn/core';
import { isCompacted, isCompactionMessage, latestCompaction, summaryMessage } from './apply-compaction.js';
import { toContextMessage } from './to-context-message.js';

/** The log messages a model sees, in log order, before tool pairs are repaired. */
export interface LogSelection {
  messages: ModelMessage[];
  /** The `seq` of the log message each of `messages` came from; the first seq it covers for the summary. */
  seqs: (number | undefined)[];
  /**
   * Hidden (`includeInContext: false`), display-only, off the active branch (replaced by an edit or a
   * regeneration), and compaction records neither applied nor covered.
   */
  excluded: number;
  /** Visible messages in the applied compaction record's range (older records included). */
  compacted: number;
  /** Whether a compaction record was applied: its summary is among `messages`. */
  summarised: boolean;
}

/**
 * One pass over the log's active branch (`activeBranch`: what edits and regenerations replaced is left
 * out): hidden and display-only messages are left out; the latest compaction
 * record's range is replaced by its summary, placed where the range starts; other compaction
 * records are left out (superseded). A log `system` message other than a compaction record stays in
 * place as a `system` message: adapters move system text where their provider wants it, and
 * keeping it out of the composed prompt keeps that prompt a stable, cacheable prefix.
 */
export function selectLogMessages(
  log: readonly ConversationMessage[],
  maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS,
): LogSelection {
  const path = activeBranch(log);
  const record = latestCompaction(path);
  const range = record?.compaction;
  const selection: LogSelection = {
    messages: [],
    seqs: [],
    excluded: log.length - path.length,
    compacted: 0,
    summarised: false,
  };
  const sendSummary = () => {
    if (record === undefined || selection.summarised) return;
    selection.messages.push(summaryMessage(record));
    // The summary stands for its range from its first seq: a new summary that takes it in then
    // covers the old range too (the latest record supersedes the others).
    selection.seqs.push(range?.fromSeq);
    selection.summarised = true;
  };

  for (const message of path) {
    const { seq } = message;
    if (range !== undefined && seq !== undefined && seq >= range.fromSeq) sendSummary();
    if (message === record) continue;
    if (!isIncludedInContext(message)) {
      selection.excluded++;
    } else if (isCompacted(range, seq)) {
      selection.compacted++;
    } else if (isCompactionMessage(message)) {
      selection.excluded++;
    } else {
      selection.messages.push(toContextMessage(message, maxToolResultChars));
      selection.seqs.push(seq);
    }
  }
  // A record whose range lies beyond every stored seq (or a log without seqs) still sends its summary.
  sendSummary();
  return selection;
}
