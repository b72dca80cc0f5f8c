import { isRecord } from '../is-record.js';
import { isMockSignature, MOCK_SIGNATURE_KINDS } from './mock-signature.js';
import { openAIResponseFormatProblem } from './openai-response-format-rules.js';

type Item = Record<string, unknown>;

const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);
// Items a model writes, one of which must follow each reasoning item it wrote before them.
const FOLLOWING_TYPES = new Set([...CALL_TYPES, 'web_search_call', 'file_search_call', 'computer_call']);

const callIdOf = (item: Item): string | undefined =>
  typeof item.call_id === 'string' ? item.call_id : undefined;

/** An assistant message item (`type: "message"`, or the short form with only a `role`). */
const isAssistantMessage = (item: Item | undefined): boolean =>
  item !== undefined && (item.type === 'message' || item.type === undefined) && item.role === 'assistant';

const followsReasoning = (item: Item | undefined): boolean =>
  isAssistantMessage(item) || (typeof item?.type === 'string' && FOLLOWING_TYPES.has(item.type));

/**
 * The request rules of `POST /v1/responses` that clients get wrong in practice (each with its
 * source in `mock-rules/openai-responses.md`): a model and an `input`; when the conversation is
 * sent whole (no `previous_response_id`, as with `store: false`) every tool call answered by an
 * output with its `call_id` and no output without its call; every reasoning item followed by the
 * item it preceded (a message or a call); with `store: false` a reasoning item carrying its
 * `encrypted_content`, which must be one this server issued; and a structured-output `text.format`
 * a strict schema can be. Returns the API's error message, or `undefined` when the body passes.
 */
export function openAIResponsesRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  const { input } = body;
  if (typeof input !== 'string') {
    if (!Array.isArray(input)) return "Missing required parameter: 'input'.";
    const problem = inputProblem(
      input.map((item) => (isRecord(item) ? item : {})),
      body,
    );
    if (problem !== undefined) return problem;
  }
  const format = isRecord(body.text) ? body.text.format : undefined;
  if (!isRecord(format) || format.type !== 'json_schema') return undefined;
  // Chat Completions' `response_format.json_schema`, flattened into `text.format`: the same rules.
  const { type, ...jsonSchema } = format;
  return openAIResponseFormatProblem({ type, json_schema: jsonSchema });
}

function inputProblem(input: Item[], body: Record<string, unknown>): string | undefined {
  const stored = body.store !== false;
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [index, item] of input.entries()) {
    const callId = callIdOf(item);
    if (item.type === 'reasoning') {
      const id = String(item.id);
      if (!followsReasoning(input[index + 1])) {
        return `Item '${id}' of type 'reasoning' was provided without its required following item.`;
      }
      if (item.encrypted_content === undefined || item.encrypted_content === null) {
        if (!stored) {
          return `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;
        }
      } else if (!isMockSignature(MOCK_SIGNATURE_KINDS.openaiResponses, item.encrypted_content)) {
        return `The encrypted content for item ${id} could not be verified.`;
      }
    }
    if (typeof item.type === 'string' && CALL_TYPES.has(item.type) && callId !== undefined) calls.add(callId);
    if (typeof item.type === 'string' && OUTPUT_TYPES.has(item.type)) {
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
