import { type CairnErrorCode, definedFields } from '@cairn/core';
import { httpErrorCode } from '@cairn/provider-utils';
import { isRecord } from './cli-line-events.js';

/** A model API failure an agent CLI reported as text, made readable. */
export interface CliApiError {
  /** The HTTP status, when the CLI or the text gives it. */
  status?: number;
  /** The provider's own message: no `API Error:` prefix, no JSON, no stack trace. */
  message: string;
  code: CairnErrorCode;
}

// Claude Code: "API Error: 529 Overloaded. …"; Gemini CLI: "[API Error: {json}]" or "[API Error: text]".
const PREFIX = /^\s*\[?\s*API Error:\s*/i;
const LEADING_STATUS = /^(\d{3})\b[\s:]*/;
// Claude Code once its retries ran out: "API Error: Repeated 529 Overloaded errors. …" (the
// result line's `api_error_status` is null then, so the text is the only place the status is).
const REPEATED_STATUS = /^Repeated (\d{3})\b/;
// A stack frame ("    at fn (file:1:2)") starts the part of a message no user should read.
const STACK_FRAME = /\n\s+at\s/;

// Google's status words (Gemini's `error.status`) and the words CLIs use when they give no status.
const STATUS_OF_WORD: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bRESOURCE_EXHAUSTED\b|rate.?limit|quota|too many requests/i, 429],
  [/\bUNAUTHENTICATED\b|authentication|invalid api key|api key not valid/i, 401],
  [/\bPERMISSION_DENIED\b/, 403],
  [/\bINVALID_ARGUMENT\b|FAILED_PRECONDITION|invalid_request/i, 400],
  [/\bDEADLINE_EXCEEDED\b|timed? ?out/i, 408],
  [/\bUNAVAILABLE\b|overloaded|server.?error|internal error|\bINTERNAL\b/i, 503],
];

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// `{error: {code, message, status}}` (Google, Anthropic's `{type:"error", error:{type, message}}`)
// or `{message}`. Gemini CLI sometimes nests the whole body again as the message's text.
function fromJson(value: unknown, depth = 0): { message?: string; status?: number; word?: string } {
  if (!isRecord(value)) return {};
  const error = isRecord(value.error) ? value.error : value;
  const message = typeof error.message === 'string' ? error.message : undefined;
  const status =
    typeof error.code === 'number' ? error.code : typeof value.status === 'number' ? value.status : undefined;
  const word =
    typeof error.status === 'string' ? error.status : typeof error.type === 'string' ? error.type : undefined;
  if (message !== undefined && depth < 2 && message.trimStart().startsWith('{')) {
    const inner = fromJson(parseJson(message.trim()), depth + 1);
    if (inner.message !== undefined)
      return definedFields({
        message: inner.message,
        status: inner.status ?? status,
        word: inner.word ?? word,
      });
  }
  return definedFields({ message, status, word });
}

function statusOfWords(text: string): number | undefined {
  for (const [pattern, status] of STATUS_OF_WORD) if (pattern.test(text)) return status;
  return undefined;
}

/** The `LLM_*` code of an HTTP status (as the model adapters map it); `AGENT_FAILED` without one. */
export function codeOfApiStatus(status: number | undefined, message = ''): CairnErrorCode {
  if (status === undefined || !Number.isInteger(status) || status < 400 || status > 599)
    return 'AGENT_FAILED';
  return httpErrorCode(status, message);
}

/**
 * Reads an API error as a CLI words it. `status` is the CLI's own (Claude Code's
 * `api_error_status`), which wins over a status found in the text.
 */
export function parseCliApiError(text: string, status?: number): CliApiError {
  let rest = text.replace(PREFIX, '');
  const frame = STACK_FRAME.exec(rest);
  if (frame !== null) rest = rest.slice(0, frame.index);
  rest = rest.trim();
  if (PREFIX.test(text) && text.trimStart().startsWith('[') && rest.endsWith(']'))
    rest = rest.slice(0, -1).trim();
  let found = status;
  const leading = LEADING_STATUS.exec(rest);
  if (leading !== null) {
    found ??= Number(leading[1]);
    rest = rest.slice(leading[0].length);
  }
  const repeated = REPEATED_STATUS.exec(rest);
  if (repeated !== null) found ??= Number(repeated[1]);
  let message = rest;
  let word: string | undefined;
  const open = rest.indexOf('{');
  if (open !== -1) {
    const json = fromJson(parseJson(rest.slice(open, rest.lastIndexOf('}') + 1)));
    if (json.message !== undefined) message = json.message;
    found ??= json.status;
    word = json.word;
  }
  message = message.trim() === '' ? text.trim() : message.trim();
  found ??= statusOfWords(`${word ?? ''} ${message}`);
  const code = codeOfApiStatus(found, message);
  // Not `{ ...definedFields({ status }), message, code }`: a spread before more fields is slow in V8.
  return found === undefined ? { message, code } : { status: found, message, code };
}
