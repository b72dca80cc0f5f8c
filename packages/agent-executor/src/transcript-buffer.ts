/**
 * How much of a run's raw stdout is kept as its transcript: the first 64 MiB. The transcript is held
 * in memory until the run ends (`ConversationStore.putBlob` writes a whole blob), so a runaway agent
 * must not grow it without bound. Every line is still converted and stored as messages; only the
 * raw copy stops, and a marker line at its end says so.
 */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The marker ending a cut transcript: a JSON line, so the `.jsonl` stays line-by-line readable. */
export function transcriptTruncatedLine(keptBytes: number, droppedBytes: number): string {
  const marker = {
    type: 'cairn_transcript_truncated',
    keptBytes,
    droppedBytes,
    message: `Cairn kept only the first ${keptBytes} bytes of the agent's stdout; ${droppedBytes} more bytes were not kept`,
  };
  return `${JSON.stringify(marker)}\n`;
}

/**
 * The first `limit` bytes of a stream (an agent's stdout), the rest counted but dropped. Its
 * contents end with `transcriptTruncatedLine` (after a line break, when the cut was mid-line) when
 * anything was dropped.
 */
export class TranscriptBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly limit = MAX_TRANSCRIPT_BYTES) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.kept;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, Math.max(0, room));
    if (part.length > 0) {
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += chunk.length - part.length;
  }

  /** The kept bytes, and the truncation marker when some were dropped. */
  contents(): Buffer {
    if (this.dropped === 0) return Buffer.concat(this.chunks);
    const last = this.chunks.at(-1);
    const lineBreak = last !== undefined && last[last.length - 1] !== 0x0a ? '\n' : '';
    const marker = Buffer.from(`${lineBreak}${transcriptTruncatedLine(this.kept, this.dropped)}`);
    return Buffer.concat([...this.chunks, marker]);
  }
}
