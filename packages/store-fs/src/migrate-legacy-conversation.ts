import { readFile } from 'node:fs/promises';
import { CairnError, type ConversationMessage, isValidConversationMessage } from '@cairn/core';
import type { FsLayout } from './fs-layout.js';
import { encodeRecords } from './log-record.js';
import { exists } from './missing-files.js';
import { type QuarantineReport, writeQuarantine } from './quarantine.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * One-time migration of the seed design's `messages.json` (a JSON array rewritten on every append)
 * to `messages.jsonl`. Array order becomes seq order (never the timestamps, which tie). Elements
 * that are not valid messages are quarantined, not dropped silently. The original file is kept.
 * Under the lock. Returns false when there is no legacy file.
 */
export async function migrateLegacyConversation(
  conversationId: string,
  // The two fields of ConversationLogOptions it needs, named here: conversation-log.ts imports this module.
  { layout, onQuarantine }: { layout: FsLayout; onQuarantine: (report: QuarantineReport) => void },
): Promise<boolean> {
  const legacyFile = layout.legacyFile(conversationId);
  if (!exists(legacyFile)) return false;
  let text: string;
  try {
    text = await readFile(legacyFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    parsed = error;
  }
  if (!Array.isArray(parsed)) {
    throw new CairnError(
      'STORE_CORRUPT',
      `${legacyFile} is not a JSON array of messages; it was left untouched`,
      {
        details: { conversationId, file: legacyFile },
      },
    );
  }
  const valid: ConversationMessage[] = [];
  const invalid: { index: number; value: unknown }[] = [];
  parsed.forEach((value: unknown, index) => {
    if (isValidConversationMessage(value)) valid.push(value);
    else invalid.push({ index, value });
  });
  const quarantineFile = layout.quarantineFile(conversationId);
  if (invalid.length > 0) {
    await writeQuarantine(
      quarantineFile,
      invalid.map(({ index, value }) => ({
        header: { at: new Date().toISOString(), legacyIndex: index, reason: 'invalid-legacy-message' },
        bytes: Buffer.from(`${JSON.stringify(value)}\n`),
      })),
    );
  }
  const lines = valid.map(
    (message, index) =>
      encodeRecords([{ ...message, seq: index + 1 }], new Date(message.createdAt).toISOString()).bytes,
  );
  await writeFileAtomic(layout.logFile(conversationId), Buffer.concat(lines), true);
  for (const { index } of invalid) {
    onQuarantine({
      conversationId,
      quarantineFile,
      offset: index,
      length: 1,
      reason: 'invalid-legacy-message',
    });
  }
  return true;
}
