import type { AgentOutputOf } from '@cairn/core';
import { classifyHttpError } from '@cairn/provider-utils';

// Qwen Code reports a failed model call as the assistant's text, "[API Error: 400 <message>]",
// and then a `result` with `subtype: "success"` and `is_error: false` (0.15.10).
const API_ERROR_TEXT = /^\[API Error: (?:(\d{3}) )?([\s\S]*)\]$/;

/** The error event a Qwen Code "[API Error: …]" text stands for; undefined for any other text. */
export function qwenCodeApiError(text: string, timestamp: string): AgentOutputOf<'error'> | undefined {
  const match = API_ERROR_TEXT.exec(text.trim());
  if (match === null) return undefined;
  const [, status, message = ''] = match;
  const error =
    status === undefined
      ? undefined
      : classifyHttpError({ status: Number(status), provider: 'qwen-code', message });
  return {
    type: 'error',
    timestamp,
    code: error?.code ?? 'AGENT_FAILED',
    message: text.trim(),
    retryable: error?.retryable ?? false,
    // The CLI stops after it: its next line is the result.
    fatal: true,
  };
}
