import type { StreamSink } from '@cairn/provider-utils';
import type { Response } from 'openai/resources/responses/responses';
import { OpenAIResponsesOutput } from './openai-responses-output.js';

/**
 * Reports a whole (non-streamed) Responses API answer to `sink` item by item, as the stream
 * reader does, so `generate` and `stream` build the same message.
 */
export function readOpenAIResponsesResponse(response: Response, sink: StreamSink): void {
  sink.start({ responseId: response.id, modelId: response.model });
  const output = new OpenAIResponsesOutput(sink);
  for (const item of response.output ?? []) output.end(item, false);
  output.finish(response);
}
