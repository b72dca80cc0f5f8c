import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { parseAnthropicProviderOptions } from './anthropic-provider-options.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { prepareAnthropicTools } from './prepare-anthropic-tools.js';

/**
 * The Messages API body for a request. `temperature`, `topP` and `seed` are not sent: the Messages
 * API this SDK describes has no sampling parameters (and never had a seed).
 */
export function buildAnthropicRequest(
  request: ModelRequest,
  defaults: { model: string; maxOutputTokens: number },
): MessageCreateParamsNonStreaming {
  const { system, messages } = convertToAnthropicMessages(request.messages);
  const { thinking } = parseAnthropicProviderOptions(request);
  const stopSequences = request.settings?.stopSequences;
  return {
    model: defaults.model,
    // Anthropic requires max_tokens on every request.
    max_tokens: request.settings?.maxOutputTokens ?? defaults.maxOutputTokens,
    ...definedFields({ system }),
    messages,
    ...prepareAnthropicTools(request.tools, request.toolChoice),
    ...(stopSequences === undefined || stopSequences.length === 0 ? {} : { stop_sequences: stopSequences }),
    ...definedFields({ thinking }),
  };
}
