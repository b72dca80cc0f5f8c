const LF = 0x0a;
const BOM = 0xfeff;

/**
 * Splits a byte (or text) stream into lines ending in LF, CRLF or CR, whatever the chunking: a
 * chunk may end inside a line, between CR and LF, or inside a UTF-8 character. One leading BOM is
 * dropped. Lines come without their terminator; blank lines are kept (SSE needs them).
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private rest = '';
  private started = false;
  // The previous chunk ended in CR: an LF opening the next chunk belongs to that line break.
  private skipLineFeed = false;

  /** The lines completed by `chunk`. */
  push(chunk: Uint8Array | string): string[] {
    const lines: string[] = [];
    this.split(this.decode(chunk), lines);
    return lines;
  }

  /** The last line, if the stream did not end with a line break. */
  end(): string[] {
    const lines: string[] = [];
    this.split(this.decoder.decode(), lines);
    if (this.rest !== '') lines.push(this.rest);
    this.rest = '';
    this.started = false;
    this.skipLineFeed = false;
    return lines;
  }

  private decode(chunk: Uint8Array | string): string {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.started || text === '') return text;
    this.started = true;
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }

  private split(text: string, lines: string[]): void {
    if (text === '') return;
    let start = 0;
    if (this.skipLineFeed) {
      this.skipLineFeed = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    while (lf !== -1 || cr !== -1) {
      const isCr = cr !== -1 && (lf === -1 || cr < lf);
      const end = isCr ? cr : lf;
      // Only the new text is searched, and the carried-over part joined once per line: a long
      // line arriving in many small chunks stays linear.
      const piece = text.slice(start, end);
      lines.push(this.rest === '' ? piece : this.rest + piece);
      this.rest = '';
      start = end + 1;
      if (isCr) {
        if (start === text.length) this.skipLineFeed = true;
        else if (text.charCodeAt(start) === LF) start++;
      }
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < text.length) this.rest += text.slice(start);
  }
}

/** The lines of a chunked stream (see `LineSplitter`), the last one even without a line break. */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string, void, undefined> {
  const splitter = new LineSplitter();
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}
