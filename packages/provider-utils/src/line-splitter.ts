const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;

/**
 * Splits a byte (or text) stream into lines ending in LF, CRLF or CR, whatever the chunking: a
 * chunk may end inside a line, between CR and LF, or inside a UTF-8 character. One leading BOM is
 * dropped. Lines come without their terminator; blank lines are kept (SSE needs them).
 *
 * Bytes are split before they are decoded, one line at a time: LF and CR never occur inside a UTF-8
 * character, so decoding each line alone gives the same text as decoding the whole stream, and a
 * line of ASCII becomes a compact one-byte string even when other lines of its chunk are not
 * (decoding a whole chunk makes every line of it two-byte, slower to parse and twice the memory).
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // The unfinished line: its text from string chunks, then its bytes since (kept as pieces, joined once).
  private rest = '';
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private started = false;
  // The previous chunk ended in CR: an LF opening the next chunk belongs to that line break.
  private skipLineFeed = false;

  /** The lines completed by `chunk`. */
  push(chunk: Uint8Array | string): string[] {
    const lines: string[] = [];
    if (typeof chunk === 'string') {
      // A string after bytes: the bytes of the unfinished line come before it.
      if (this.pendingLength > 0) this.rest = this.startText(this.rest + this.takePending());
      this.splitText(this.startText(chunk), lines);
    } else {
      this.splitBytes(chunk, lines);
    }
    return lines;
  }

  /** The last line, if the stream did not end with a line break. */
  end(): string[] {
    const last = this.startText(this.rest + this.takePending());
    this.rest = '';
    this.started = false;
    this.skipLineFeed = false;
    return last === '' ? [] : [last];
  }

  // Drops the stream's one leading BOM from the first text it yields (blank text is not its start yet).
  private startText(text: string): string {
    if (this.started || text === '') return text;
    this.started = true;
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }

  // The unfinished line's bytes, decoded (a character cut at the end becomes U+FFFD, as at the end
  // of any decoding), and forgotten.
  private takePending(): string {
    if (this.pendingLength === 0) return '';
    const pieces = this.pending;
    let bytes: Uint8Array;
    if (pieces.length === 1) bytes = pieces[0] as Uint8Array;
    else {
      bytes = new Uint8Array(this.pendingLength);
      let at = 0;
      for (const piece of pieces) {
        bytes.set(piece, at);
        at += piece.length;
      }
    }
    this.pending = [];
    this.pendingLength = 0;
    return this.decoder.decode(bytes);
  }

  private line(text: string, lines: string[]): void {
    let line = this.rest === '' ? text : this.rest + text;
    this.rest = '';
    // The stream's first line, even a blank one, holds its first character: only there is a BOM.
    if (!this.started) {
      this.started = true;
      if (line.charCodeAt(0) === BOM) line = line.slice(1);
    }
    lines.push(line);
  }

  private splitBytes(bytes: Uint8Array, lines: string[]): void {
    if (bytes.length === 0) return;
    // Line breaks are searched in the chunk itself (a Node Buffer searches natively, with memchr),
    // lines are cut from a plain view of it (see `plainBytes`).
    const view = plainBytes(bytes);
    let start = 0;
    if (this.skipLineFeed) {
      this.skipLineFeed = false;
      if (bytes[0] === LF) start = 1;
    }
    let lf = bytes.indexOf(LF, start);
    let cr = bytes.indexOf(CR, start);
    while (lf !== -1 || cr !== -1) {
      const isCr = cr !== -1 && (lf === -1 || cr < lf);
      const end = isCr ? cr : lf;
      if (this.pendingLength === 0) this.line(this.decoder.decode(view.subarray(start, end)), lines);
      else {
        this.pending.push(view.subarray(start, end));
        this.pendingLength += end - start;
        this.line(this.takePending(), lines);
      }
      start = end + 1;
      if (isCr) {
        if (start === bytes.length) this.skipLineFeed = true;
        else if (bytes[start] === LF) start++;
      }
      if (lf !== -1 && lf < start) lf = bytes.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = bytes.indexOf(CR, start);
    }
    if (start < bytes.length) {
      // A copy: the caller may reuse its chunk's buffer.
      this.pending.push(view.slice(start));
      this.pendingLength += bytes.length - start;
    }
  }

  private splitText(text: string, lines: string[]): void {
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
      this.line(text.slice(start, end), lines);
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

// The chunk as a plain Uint8Array over the same memory: a subclass's `subarray` (Node's Buffer's)
// makes an instance of the subclass through its constructor, which costs more than the line's
// decoding; a plain one's is a built-in.
function plainBytes(chunk: Uint8Array): Uint8Array {
  return chunk.constructor === Uint8Array
    ? chunk
    : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** The lines of a chunked stream (see `LineSplitter`), the last one even without a line break. */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string, void, undefined> {
  const splitter = new LineSplitter();
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}
