import type { JsonValue } from '@cairn/core';
import { classifyHttpError, type StreamSink } from '@cairn/provider-utils';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { OpenAIResponsesOutput, reasoningKey, responseFailed } from './openai-responses-output.js';

// Events whose content arrives again, whole, in an event read below: nothing to report.
const REPEATED = new Set([
  'response.queued',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.refusal.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.done',
  'response.function_call_arguments.done',
]);

/**
 * Reports the events of a streamed Responses API answer to `sink`: text and refusal deltas,
 * reasoning summary deltas (one reasoning block per summary part), function calls from their
 * argument deltas, and at `response.completed`/`response.incomplete` the usage, item order and
 * finish reason. `response.failed` and `error` events are thrown as classified `CairnError`s; an
 * event of a kind not read here is passed on as `unknown`.
 */
export async function readOpenAIResponsesEvents(
  events: AsyncIterable<ResponseStreamEvent>,
  sink: StreamSink,
): Promise<void> {
  const output = new OpenAIResponsesOutput(sink);
  for await (const event of events) {
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        sink.start({ responseId: event.response.id, modelId: event.response.model });
        break;
      case 'response.output_item.added':
        output.begin(event.item);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        sink.textDelta(event.item_id, event.delta);
        break;
      case 'response.reasoning_summary_text.delta':
        sink.reasoningDelta(reasoningKey(event.item_id, event.summary_index), event.delta);
        break;
      case 'response.function_call_arguments.delta': {
        const callId = output.callIdOf(event.item_id);
        if (callId !== undefined) sink.toolInputDelta(callId, event.delta);
        break;
      }
      case 'response.output_item.done':
        output.end(event.item, true);
        break;
      case 'response.completed':
      case 'response.incomplete':
        output.finish(event.response);
        return;
      case 'response.failed':
        throw responseFailed(event.response);
      case 'error':
        // An error after the headers were sent: OpenAI names the failure in `code`.
        throw classifyHttpError({
          status: 500,
          headers: new Headers(),
          body: { error: { message: event.message, code: event.code, param: event.param } },
          message: event.message,
          provider: 'openai',
        });
      default:
        if (!REPEATED.has(event.type)) sink.unknown(event as unknown as JsonValue);
    }
  }
}
