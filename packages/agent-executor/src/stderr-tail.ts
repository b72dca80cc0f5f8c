/** Default cap of the stderr an executor keeps per run: the last 64 KiB. */
export const DEFAULT_STDERR_LIMIT = 64 * 1024;

/**
 * The last `limit` bytes of a stream (an agent's stderr): enough to explain a failure, bounded
 * however much a chatty CLI logs. Chunks are kept as they came and trimmed from the front.
 */
export class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit = DEFAULT_STDERR_LIMIT) {}

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(bytes);
    this.size += bytes.length;
    while (this.size > this.limit) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  /** The kept text (a character cut at the front by trimming shows as U+FFFD). */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  /** The last `count` non-blank lines, for an error message. */
  lastLines(count: number): string[] {
    const lines = this.text()
      .split(/\r\n|\r|\n/)
      .filter((line) => line.trim() !== '');
    return lines.slice(-count);
  }
}
