import { open } from 'node:fs/promises';

/** How much of a file is looked at to decide whether it is text. */
const BINARY_SNIFF_BYTES = 8192;

/** A NUL byte near the start: what git and grep take for a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** `looksBinary` for a file, reading only its start. */
export async function fileLooksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(
      Buffer.alloc(BINARY_SNIFF_BYTES),
      0,
      BINARY_SNIFF_BYTES,
      0,
    );
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
