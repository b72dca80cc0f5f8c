import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

// Longer lines (minified code, data) are cut: one of them could fill the whole read.
export const MAX_LINE_LENGTH = 2000;

export interface NumberedLinesRequest {
  /** First line, 1-based. */
  offset: number;
  maxLines: number;
  maxBytes: number;
  signal: AbortSignal;
}

export interface NumberedLines {
  /** `cat -n` style: the line number right-aligned to 6, a tab, the line. */
  text: string;
  /** Lines shown. */
  count: number;
  /** More lines follow the last one shown. */
  more: boolean;
  /** The file's line count, known when it was read to its end. */
  total?: number;
}

function numbered(number: number, line: string): string {
  const shown =
    line.length > MAX_LINE_LENGTH
      ? `${line.slice(0, MAX_LINE_LENGTH)}… [line cut at ${MAX_LINE_LENGTH} characters]`
      : line;
  return `${String(number).padStart(6)}\t${shown}`;
}

/** Lines of a text file from `offset`, streamed: a huge file is never read whole. */
export async function readNumberedLines(path: string, request: NumberedLinesRequest): Promise<NumberedLines> {
  const { offset, maxLines, maxBytes, signal } = request;
  const stream = createReadStream(path, { encoding: 'utf8' });
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const shown: string[] = [];
  let bytes = 0;
  let number = 0;
  let more = false;
  try {
    for await (const line of reader) {
      signal.throwIfAborted();
      number++;
      if (number < offset) continue;
      const text = numbered(number, line);
      const size = Buffer.byteLength(text) + 1;
      if (shown.length === maxLines || (shown.length > 0 && bytes + size > maxBytes)) {
        more = true;
        break;
      }
      shown.push(text);
      bytes += size;
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return { text: shown.join('\n'), count: shown.length, more, ...(more ? {} : { total: number }) };
}
