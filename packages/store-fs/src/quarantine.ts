import { appendFile, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CorruptReason } from './log-record-types.js';

/** What the store moved out of a log (or a legacy file) into its `.corrupt` side file. */
export interface QuarantineReport {
  conversationId: string;
  /** The side file holding the bytes. */
  quarantineFile: string;
  /** Where the bytes were in the log. */
  offset: number;
  length: number;
  reason: CorruptReason | 'invalid-legacy-message';
}

/** The default `onQuarantine`: a process warning, so nothing is quarantined silently. */
export function warnQuarantine(report: QuarantineReport): void {
  process.emitWarning(
    `Cairn quarantined ${report.length} bytes (${report.reason}) of conversation ${report.conversationId} into ${report.quarantineFile}`,
    { code: 'CAIRN_STORE_QUARANTINE' },
  );
}

/**
 * Appends bad bytes to the side file, each chunk after a `# quarantined {…}` header line, and
 * fsyncs it: the bytes must be safe there before they are removed from the log.
 */
export async function writeQuarantine(
  quarantineFile: string,
  chunks: readonly { header: object; bytes: Uint8Array }[],
): Promise<void> {
  const parts = chunks.flatMap(({ header, bytes }) => {
    const newline = bytes.at(-1) === 0x0a ? [] : [Buffer.from('\n')];
    return [Buffer.from(`# quarantined ${JSON.stringify(header)}\n`), Buffer.from(bytes), ...newline];
  });
  await appendFile(quarantineFile, Buffer.concat(parts));
  // The file's data and its directory entry must be on disk before the bytes leave the log.
  for (const path of [quarantineFile, dirname(quarantineFile)]) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
