import type { JsonValue } from '@cairn/core';

/** A call's argument text as JSON; text that is not JSON (a cut-off stream) stays a string. */
export function parseToolArguments(text: string): JsonValue {
  if (text === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
