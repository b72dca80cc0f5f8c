import { isRecord } from '../is-record.js';
import { openAIContentProblem } from './openai-content-rules.js';
import { openAIResponseFormatProblem } from './openai-response-format-rules.js';

/**
 * The request rules api.openai.com enforces that adapters get wrong in practice: every assistant
 * tool call answered by a `tool` message before anything else, and no `tool` message without
 * its call; content parts (`openAIContentProblem`) and `response_format`, strict schemas included
 * (`openAIResponseFormatProblem`). Returns the API's error message, or `undefined` when the body
 * passes.
 */
export function openAIRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.model !== 'string') return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "[] is too short - 'messages'";
  let pending = new Set<string>();
  const unanswered = () =>
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`;
  for (const [index, message] of body.messages.entries()) {
    const role = isRecord(message) ? message.role : undefined;
    const contentProblem = isRecord(message) ? openAIContentProblem(message, index) : undefined;
    if (contentProblem !== undefined) return contentProblem;
    if (role === 'tool') {
      const id = isRecord(message) ? message.tool_call_id : undefined;
      if (typeof id !== 'string' || !pending.delete(id)) {
        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
      }
      continue;
    }
    if (pending.size > 0) return unanswered();
    const calls = isRecord(message) && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    pending = new Set(
      calls.flatMap((call) => (isRecord(call) && typeof call.id === 'string' ? [call.id] : [])),
    );
  }
  return pending.size > 0 ? unanswered() : openAIResponseFormatProblem(body.response_format);
}
