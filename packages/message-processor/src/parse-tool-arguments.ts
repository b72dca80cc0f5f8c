import type { JsonValue, OpenAIToolCall } from '@cairn/core';

// The input objects of calls this process made from `tool_use` events, so showing a call does not
// parse the JSON text that was just made from it. Weak: a call forgotten by everyone is dropped.
const knownInputs = new WeakMap<OpenAIToolCall, JsonValue>();

/** Remembers the input a call's argument text was made from. */
export function rememberToolInput(call: OpenAIToolCall, input: JsonValue): void {
  knownInputs.set(call, input);
}

/** A call's arguments as JSON; text that is not JSON (a cut-off stream) stays a string. */
export function toolArgumentsOf(call: OpenAIToolCall): JsonValue {
  const known = knownInputs.get(call);
  if (known !== undefined) return known;
  const text = call.function.arguments;
  if (text === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
