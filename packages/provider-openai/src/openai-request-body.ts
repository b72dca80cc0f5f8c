import type { ModelRequest } from '@cairn/core';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';
import type { OpenAIMaxTokensParameter } from './openai-adapter-options.js';
import { prepareOpenAIResponseFormat } from './prepare-openai-response-format.js';
import { prepareOpenAITools } from './prepare-openai-tools.js';

/** The request body without `stream`: the same for `generate` and `stream`. */
export type OpenAIRequestBody = Omit<ChatCompletionCreateParamsBase, 'stream' | 'stream_options'>;

/**
 * The Chat Completions body of a request. `providerOptions.openai` is merged in as extra body
 * fields (`reasoning_effort`, `parallel_tool_calls`, a compatible server's own fields) and may
 * override the mapped settings and `response_format`, but never the model or the messages.
 */
export function buildOpenAIRequestBody(
  request: ModelRequest,
  model: string,
  maxTokensParameter: OpenAIMaxTokensParameter,
): OpenAIRequestBody {
  const { maxOutputTokens, temperature, topP, stopSequences, seed } = request.settings ?? {};
  const settings: Partial<OpenAIRequestBody> = {};
  if (maxOutputTokens !== undefined) settings[maxTokensParameter] = maxOutputTokens;
  if (temperature !== undefined) settings.temperature = temperature;
  if (topP !== undefined) settings.top_p = topP;
  if (stopSequences !== undefined && stopSequences.length > 0) settings.stop = stopSequences;
  if (seed !== undefined) settings.seed = seed;
  return {
    ...settings,
    ...prepareOpenAITools(request.tools, request.toolChoice),
    ...prepareOpenAIResponseFormat(request.output),
    ...request.providerOptions?.openai,
    model,
    messages: convertToOpenAIMessages(request.messages),
  };
}
