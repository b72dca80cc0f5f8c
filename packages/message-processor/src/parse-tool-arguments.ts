import { type JsonValue, MAX_TOOL_INPUT_DEPTH, type OpenAIToolCall, truncateDeepJson } from '@cairn/core';

/**
 * A call's arguments as JSON; text that is not JSON (a cut-off stream) stays a string. Nesting
 * deeper than `MAX_TOOL_INPUT_DEPTH` is cut (see `truncateDeepJson`): a hostile input must not
 * overflow the stack of whatever serialises the display message.
 */
export function toolArgumentsOf(call: OpenAIToolCall): JsonValue {
  return parseToolArguments(call.function.arguments);
}

/** `toolArgumentsOf` for a call's argument text. */
export function parseToolArguments(text: string): JsonValue {
  if (text === '') return {};
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
  return truncateDeepJson(parsed, MAX_TOOL_INPUT_DEPTH).value;
}
