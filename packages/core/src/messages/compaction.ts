import { z } from 'zod';

const seq = z.number().int().positive();
const tokens = z.number().int().nonnegative();

/**
 * What a compaction record covers: the log messages `fromSeq`..`toSeq` (inclusive), summarised in
 * the record's `content`. Compression appends such a record and never rewrites the log; the
 * context builder sends the latest record's summary in place of the range it covers.
 */
export const CompactionSchema = z
  .object({
    fromSeq: seq,
    toSeq: seq,
    /** Tokens of the covered messages, and of the summary that replaces them. */
    tokensBefore: tokens.optional(),
    tokensAfter: tokens.optional(),
  })
  .refine((range) => range.fromSeq <= range.toSeq, {
    message: 'fromSeq must not be after toSeq',
    path: ['toSeq'],
  });

export type Compaction = z.infer<typeof CompactionSchema>;

/**
 * The text a model reads in place of summarised messages: the summary, marked as one, so the
 * model neither takes it for the user's words nor trusts details it may have lost.
 */
export function compactionSummaryText(summary: string): string {
  return `[Summary of the earlier conversation, written to save context; details may be missing]\n${summary}`;
}
