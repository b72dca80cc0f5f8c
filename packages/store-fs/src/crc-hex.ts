/**
 * A CRC-32 as the log writes it: 8 lowercase hex digits. Checksums are compared as exact text, not
 * parsed: "0A1B" must not pass for "0a1b", so no changed byte goes unseen.
 */
export function crcHex(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}
