import { bytesToBase64, type JsonValue } from '@cairn/core';

/**
 * A part Cairn has no event for (a generated file, a source, a provider-executed tool's result),
 * as JSON for an `unknown` event: bytes as base64, URLs and dates as text, `undefined` left out.
 */
export function unknownPartJson(part: unknown): JsonValue {
  return JSON.parse(
    JSON.stringify(part, (_key, value: unknown) =>
      value instanceof Uint8Array ? bytesToBase64(value) : value,
    ) ?? 'null',
  ) as JsonValue;
}
