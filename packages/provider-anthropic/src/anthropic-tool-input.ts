// Cairn carries tool-call arguments as a JSON string (OpenAI's shape); Anthropic's `tool_use`
// carries `input`, a JSON object.

/**
 * Tool-call arguments that are not a JSON object (the model produced invalid JSON, or a provider
 * another value) are replayed as `{ [INVALID_TOOL_ARGUMENTS_KEY]: raw }`: Anthropic only accepts an
 * object as `tool_use.input`, and keeping the raw text lets the model see what it sent.
 */
export const INVALID_TOOL_ARGUMENTS_KEY = '_raw_arguments';

/** The `tool_use.input` to send for a tool call's JSON-string arguments (see INVALID_TOOL_ARGUMENTS_KEY). */
export function toAnthropicToolInput(args: string): Record<string, unknown> {
  // A tool without parameters streams no input at all.
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Not JSON: kept raw below.
  }
  return { [INVALID_TOOL_ARGUMENTS_KEY]: args };
}

/**
 * A received `tool_use.input` as JSON-string arguments. `generate` gets the input parsed and
 * `stream` as JSON text (see `toolArgumentsFromJson`); both end as `JSON.stringify` of the same
 * value, so the two give the same assistant message.
 */
export function toolArgumentsFromInput(input: unknown): string {
  // Not the API's shape, but a string input is most faithfully kept as the arguments text.
  if (typeof input === 'string') return input;
  return JSON.stringify(input ?? {});
}

/** Streamed `input_json_delta`s, joined, as arguments: valid JSON re-serialised, anything else kept raw. */
export function toolArgumentsFromJson(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json));
  } catch {
    return json;
  }
}
