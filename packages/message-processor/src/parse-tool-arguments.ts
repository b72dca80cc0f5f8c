import type { JsonValue, OpenAIToolCall } from '@cairn/core';

/** A call's arguments as JSON; text that is not JSON (a cut-off stream) stays a string. */
export function toolArgumentsOf(call: OpenAIToolCall): JsonValue {
  const text = call.function.arguments;
  if (text === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
