import { type AgentOutputOf, isRetryableByDefault } from '@cairn/core';
import { parseCliApiError } from '../cli-api-error.js';

// Qwen Code reports a failed model call as the assistant's text, "[API Error: 400 <message>]",
// and then a `result` with `subtype: "success"` and `is_error: false` (0.15.10).
const API_ERROR_TEXT = /^\[API Error: [\s\S]*\]$/;

/**
 * The error event a Qwen Code "[API Error: …]" text stands for (the provider's own message, an
 * `LLM_*` code from the status, the CLI's text in `raw`); undefined for any other text.
 */
export function qwenCodeApiError(text: string, timestamp: string): AgentOutputOf<'error'> | undefined {
  const raw = text.trim();
  if (!API_ERROR_TEXT.test(raw)) return undefined;
  const { code, message } = parseCliApiError(raw);
  return {
    type: 'error',
    timestamp,
    code,
    message,
    retryable: isRetryableByDefault(code),
    // The CLI stops after it: its next line is the result.
    fatal: true,
    raw,
  };
}
