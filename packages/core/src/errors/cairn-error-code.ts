import { z } from 'zod';

/**
 * Every failure Cairn reports has one of these codes. They are stable public API: callers branch on
 * them, stores persist them, the server returns them. Add codes; never rename or reuse one.
 */
export const CAIRN_ERROR_CODES = [
  // Data crossing a boundary failed validation (a message, an event, a request body).
  'INVALID_MESSAGE',
  // An id that would reach a path, key or query is not a safe id.
  'INVALID_ID',
  // An option or parameter is out of range or of the wrong type (a negative `limit`, a bad cursor).
  'INVALID_ARGUMENT',
  // Stored data is unreadable (torn line, bad checksum); it was quarantined, not deleted.
  'STORE_CORRUPT',
  // An append conflicts with what is stored: an optimistic one (`expectedSeq`) lost a race, an
  // idempotency key was reused for other messages, or a message id is already taken.
  'STORE_CONFLICT',
  // The conversation or blob does not exist.
  'STORE_NOT_FOUND',
  // The storage backend cannot be reached or failed to read or write (disk full, database down).
  'STORE_UNAVAILABLE',
  // The model provider rejected the credentials (HTTP 401/403).
  'LLM_AUTH',
  // The provider is rate limiting (HTTP 429); `retryAfterMs` says when to retry.
  'LLM_RATE_LIMITED',
  // The request does not fit the model's context window.
  'LLM_CONTEXT_OVERFLOW',
  // The provider rejected the request as malformed (HTTP 400 other than context length).
  'LLM_BAD_REQUEST',
  // The provider's response could not be understood (malformed JSON or SSE).
  'LLM_BAD_RESPONSE',
  // The provider is down or unreachable (HTTP 5xx, network failure).
  'LLM_UNAVAILABLE',
  // The provider did not answer in time.
  'LLM_TIMEOUT',
  // The caller aborted the request.
  'LLM_ABORTED',
  // The model called a tool that is not registered.
  'TOOL_NOT_FOUND',
  // The model's arguments do not match the tool's input schema.
  'TOOL_INVALID_INPUT',
  // The tool threw while executing.
  'TOOL_FAILED',
  // The tool exceeded its time limit.
  'TOOL_TIMEOUT',
  // The tool policy or the user's approval refused the call.
  'TOOL_DENIED',
  // The tool loop reached `maxTurns` without the model finishing.
  'LOOP_MAX_TURNS',
  // The tool loop saw the same failing call repeat and stopped.
  'LOOP_STUCK',
  // An agent CLI process (Claude Code, Gemini CLI) failed to start, crashed or exited with an error.
  'AGENT_FAILED',
  // An optional package the chosen setting needs (a provider, a store backend) is not installed;
  // `details.packageName` names it and `details.fix` the install command.
  'PACKAGE_MISSING',
  // A schema (a tool's input) is from a library or version Cairn cannot use, or gives no JSON Schema;
  // `details.vendor` names the library.
  'UNSUPPORTED_SCHEMA',
  // A content part (an image, a PDF, …) the model or the endpoint cannot take: its type, media type
  // or size. Raised before anything is sent or stored; `details` names the part and what is allowed.
  'UNSUPPORTED_CONTENT',
  // The model's structured output is not JSON or does not match the requested schema; `details.issues`
  // lists why and `details.text` holds what the model wrote.
  'OUTPUT_INVALID',
  // An MCP server would not start or connect (a bad command, an exit at once, a bad URL, HTTP 401),
  // or stopped while in use; `details.server` names it.
  'MCP_SERVER_FAILED',
  // The backend does not implement an optional operation (a store without conversation search);
  // `details.operation` names it.
  'UNSUPPORTED_OPERATION',
  // A tool call's approval was decided already (by someone else, or the same person twice): the
  // first decision stands; `details.decision` is it.
  'APPROVAL_ALREADY_DECIDED',
  // An approval request's time ran out before a decision: it is stored as expired and the call denied.
  'APPROVAL_EXPIRED',
  // No pending approval request with that id in the conversation (never asked, or not on its branch).
  'APPROVAL_NOT_FOUND',
  // The request is asked of someone else (`askedOf`: the person at the terminal, another API caller).
  'APPROVAL_FORBIDDEN',
] as const;

export const CairnErrorCodeSchema = z.enum(CAIRN_ERROR_CODES);

export type CairnErrorCode = z.infer<typeof CairnErrorCodeSchema>;

// STORE_CONFLICT is not here: repeating the same optimistic append fails again; reload first.
const RETRYABLE_BY_DEFAULT: ReadonlySet<CairnErrorCode> = new Set([
  'STORE_UNAVAILABLE',
  'LLM_RATE_LIMITED',
  'LLM_UNAVAILABLE',
  'LLM_TIMEOUT',
]);

/** Whether a failure with this code is worth retrying when nothing more specific is known. */
export function isRetryableByDefault(code: CairnErrorCode): boolean {
  return RETRYABLE_BY_DEFAULT.has(code);
}
