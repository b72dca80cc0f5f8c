// Blob text is WTF-8 (https://simonsapin.github.io/wtf-8/): UTF-8, except that a lone surrogate,
// which UTF-8 cannot hold (Buffer.from would write U+FFFD), keeps its three-byte form (U+D800 is
// ED A0 80). Well-formed text is plain UTF-8, byte for byte, so blobs written before read the same;
// any JavaScript string comes back exactly, as it does from inline JSON.

const REPLACEMENT_CHARACTER = Buffer.from('\ufffd');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` as blob bytes: UTF-8, with lone surrogates kept (WTF-8). */
export function encodeBlobText(text: string): Buffer {
  const utf8 = Buffer.from(text, 'utf8');
  // Without a U+FFFD in the bytes, the text had no lone surrogate (each would have become one).
  if (utf8.indexOf(REPLACEMENT_CHARACTER) === -1) return utf8;
  const parts: Buffer[] = [];
  let start = 0;
  for (const { index } of text.matchAll(LONE_SURROGATE)) {
    const unit = text.charCodeAt(index);
    parts.push(
      Buffer.from(text.slice(start, index), 'utf8'),
      Buffer.of(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)),
    );
    start = index + 1;
  }
  if (start === 0) return utf8;
  parts.push(Buffer.from(text.slice(start), 'utf8'));
  return Buffer.concat(parts);
}

/** The text of blob bytes written by `encodeBlobText` (or any UTF-8): lone surrogates come back as they were. */
export function decodeBlobText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text = '';
  let start = 0;
  // A surrogate's form is ED A0-BF 80-BF; in UTF-8, ED is only ever followed by 80-9F.
  for (let at = buffer.indexOf(0xed); at !== -1; at = buffer.indexOf(0xed, at + 1)) {
    const second = buffer[at + 1] ?? 0;
    const third = buffer[at + 2] ?? 0;
    if (second < 0xa0 || second > 0xbf || (third & 0xc0) !== 0x80) continue;
    text += buffer.toString('utf8', start, at);
    text += String.fromCharCode(0xd000 | ((second & 0x3f) << 6) | (third & 0x3f));
    start = at + 3;
  }
  return start === 0 ? buffer.toString('utf8') : text + buffer.toString('utf8', start);
}
