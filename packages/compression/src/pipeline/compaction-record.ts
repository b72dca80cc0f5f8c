import { CairnError, type ConversationMessage, type ConversationMode, definedFields } from '@cairn/core';
import type { CompressionSummary } from './compression-types.js';

export interface CompactionRecordInit {
  id: string;
  createdAt: string;
  summary: CompressionSummary;
  /** The `seq` of the log message each compressed message came from (the context builder's `sourceSeqs`). */
  sourceSeqs: readonly (number | undefined)[];
  mode?: ConversationMode;
  runId?: string;
  agentId?: string;
}

/**
 * The log record of a summary (persisted compaction): a `system` message with `partType:
 * 'compaction'` covering the `seq` range of the summarised messages. Appending it never rewrites
 * the log; the context builder sends it in place of that range, so the next load reuses the
 * summary instead of summarising again. Undefined when the summarised messages came from no log
 * message (all synthetic).
 */
export function createCompactionRecord(init: CompactionRecordInit): ConversationMessage | undefined {
  const { summary, sourceSeqs } = init;
  if (summary.fromIndex > summary.toIndex || summary.toIndex >= sourceSeqs.length) {
    throw new CairnError('INVALID_ARGUMENT', 'the summary covers messages sourceSeqs does not have');
  }
  let fromSeq: number | undefined;
  let toSeq: number | undefined;
  for (let index = summary.fromIndex; index <= summary.toIndex; index++) {
    const seq = sourceSeqs[index];
    if (seq === undefined) continue;
    fromSeq = Math.min(fromSeq ?? seq, seq);
    toSeq = Math.max(toSeq ?? seq, seq);
  }
  if (fromSeq === undefined || toSeq === undefined) return undefined;
  return {
    id: init.id,
    role: 'system',
    createdAt: init.createdAt,
    content: summary.text,
    partType: 'compaction',
    compaction: { fromSeq, toSeq, tokensBefore: summary.tokensBefore, tokensAfter: summary.tokensAfter },
    ...definedFields({ mode: init.mode, runId: init.runId, agentId: init.agentId }),
  };
}
