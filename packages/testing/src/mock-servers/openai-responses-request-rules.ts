import { isRecord } from '../is-record.js';

const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

const callIdOf = (item: Record<string, unknown>): string | undefined =>
  typeof item.call_id === 'string' ? item.call_id : undefined;

/**
 * The request rules of `POST /v1/responses` that clients get wrong in practice: a model, an
 * `input`, and — when the conversation is sent whole (no `previous_response_id`, as Codex sends
 * it with `store: false`) — every tool call answered by an output with its `call_id` and no output
 * without its call. Returns the API's error message, or `undefined` when the body passes.
 */
export function openAIResponsesRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  const { input } = body;
  if (typeof input === 'string') return undefined;
  if (!Array.isArray(input)) return "Missing required parameter: 'input'.";
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of input) {
    if (!isRecord(item) || typeof item.type !== 'string') continue;
    const callId = callIdOf(item);
    if (CALL_TYPES.has(item.type) && callId !== undefined) calls.add(callId);
    if (OUTPUT_TYPES.has(item.type)) {
      if (callId === undefined) return "Missing required parameter: 'input[].call_id'.";
      // With `previous_response_id` the call lives in the stored response, which the mock does not keep.
      if (!calls.has(callId) && body.previous_response_id === undefined)
        return `No tool call found for function call output with call_id ${callId}.`;
      answered.add(callId);
    }
  }
  for (const callId of calls) {
    if (!answered.has(callId)) return `No tool output found for function call ${callId}.`;
  }
  return undefined;
}
