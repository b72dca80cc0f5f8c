import { CairnError } from '../errors/cairn-error.js';

// What the bytes of a part really are, read from their first bytes, so a part whose media type does
// not match its bytes (a PNG called a PDF, a renamed HTML page) is refused before it is stored or sent.

const SIGNATURES: ReadonlyArray<readonly [mediaType: string, offset: number, bytes: readonly number[]]> = [
  ['image/png', 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', 0, [0xff, 0xd8, 0xff]],
  ['image/gif', 0, [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', 8, [0x57, 0x45, 0x42, 0x50]],
  ['application/pdf', 0, [0x25, 0x50, 0x44, 0x46, 0x2d]],
];

const startsWith = (bytes: Uint8Array, offset: number, signature: readonly number[]) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, index) => bytes[offset + index] === byte);

/** The media type the bytes' signature names (PNG, JPEG, GIF, WebP, PDF), or `undefined`. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  for (const [mediaType, offset, signature] of SIGNATURES) {
    if (startsWith(bytes, offset, signature)) return mediaType;
  }
  return undefined;
}

const SNIFFABLE: ReadonlySet<string> = new Set(SIGNATURES.map(([mediaType]) => mediaType));

// SVG is text that a browser runs: a script, an event handler or a javascript: link makes it a page.
const ACTIVE_SVG = /<script[\s>]|\son[a-z]+\s*=|javascript:|<foreignObject[\s>]/i;

/**
 * Checks that `bytes` are what `mediaType` says: not empty, a signature matching a known binary type,
 * and no SVG with script in it. Throws `INVALID_MESSAGE` naming `what` otherwise.
 */
export function assertMediaBytes(mediaType: string, bytes: Uint8Array, what: string): void {
  const refuse = (problem: string) =>
    new CairnError('INVALID_MESSAGE', `${what}: ${problem}`, { details: { mediaType, size: bytes.length } });
  if (bytes.length === 0) throw refuse('the file is empty (0 bytes)');
  const sniffed = sniffMediaType(bytes);
  if (sniffed !== mediaType && (SNIFFABLE.has(mediaType) || sniffed !== undefined)) {
    throw refuse(`media type ${mediaType} does not match the bytes (${sniffed ?? 'no known signature'})`);
  }
  if (mediaType === 'image/svg+xml' && ACTIVE_SVG.test(new TextDecoder().decode(bytes))) {
    throw refuse('the SVG holds script (a <script>, an on… handler or a javascript: link)');
  }
}

/** Pixel width and height of a PNG, GIF, JPEG or WebP (VP8/VP8L/VP8X), when the header gives them. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  switch (sniffMediaType(bytes)) {
    case 'image/png':
      return bytes.length >= 24 ? size(view.getUint32(16), view.getUint32(20)) : undefined;
    case 'image/gif':
      return bytes.length >= 10 ? size(view.getUint16(6, true), view.getUint16(8, true)) : undefined;
    case 'image/webp':
      return webpSize(bytes, view);
    case 'image/jpeg':
      return jpegSize(bytes, view);
    default:
      return undefined;
  }
}

function webpSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = String.fromCharCode(bytes[12] ?? 0, bytes[13] ?? 0, bytes[14] ?? 0, bytes[15] ?? 0);
  if (chunk === 'VP8 ')
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const width = 1 + ((bytes[24] ?? 0) | ((bytes[25] ?? 0) << 8) | ((bytes[26] ?? 0) << 16));
    const height = 1 + ((bytes[27] ?? 0) | ((bytes[28] ?? 0) << 8) | ((bytes[29] ?? 0) << 16));
    return { width, height };
  }
  return undefined;
}

// A JPEG's size is in its first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC).
function jpegSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}
