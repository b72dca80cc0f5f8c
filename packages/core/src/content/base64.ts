// Base64 without Node's Buffer, so core runs in browsers too; Node's Buffer is used when present
// (it is several times faster on megabytes).

type BufferLike = {
  from(
    data: ArrayBufferLike | string,
    offsetOrEncoding?: number | string,
    length?: number,
  ): Uint8Array & {
    toString(encoding: string): string;
  };
};
const NodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;

/** `bytes` as standard, padded base64. */
export function bytesToBase64(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined)
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/** The bytes of standard base64 (checked by `Base64SourceSchema` before it gets here). */
export function base64ToBytes(data: string): Uint8Array {
  if (NodeBuffer !== undefined) {
    const buffer = NodeBuffer.from(data, 'base64');
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Decoded byte count of standard, padded base64, without decoding it. */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}
