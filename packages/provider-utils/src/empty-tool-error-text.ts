/**
 * The text an adapter sends for a failed tool result that has no content of its own: Anthropic
 * refuses a failed `tool_result` without content, and Gemini would get a bare `{"error":""}`.
 */
export const EMPTY_TOOL_ERROR_TEXT = 'The tool failed without a message.';
