import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '@cairn/core';
import { assertSupportedParts, definedFields } from '@cairn/core';
import { anthropicOutputConfig } from './anthropic-output-config.js';
import {
  type AnthropicStructuredOutputMode,
  addOutputTool,
  outputToolName,
} from './anthropic-output-tool.js';
import {
  type AnthropicPromptCachingOption,
  mergePromptCaching,
  placeCacheBreakpoints,
} from './anthropic-prompt-caching.js';
import { parseAnthropicProviderOptions } from './anthropic-provider-options.js';
import { canThinkInToolLoop } from './anthropic-thinking-replay.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { prepareAnthropicTools } from './prepare-anthropic-tools.js';
import { ANTHROPIC_INPUT_MEDIA_TYPES } from './to-anthropic-content-blocks.js';

/** What the adapter's options give every request. */
export interface AnthropicRequestDefaults {
  model: string;
  maxOutputTokens: number;
  /** Default: no breakpoints (the adapter passes its resolved `promptCaching`, `{}` by default). */
  promptCaching?: AnthropicPromptCachingOption;
  /** Default `native`. */
  structuredOutput?: AnthropicStructuredOutputMode;
}

/**
 * The name of the forced tool that carries a structured answer, when the request asks for
 * structured output in `tool` mode; the readers turn that tool's input into the answer's text.
 */
export function structuredOutputTool(
  request: ModelRequest,
  defaults: AnthropicRequestDefaults,
): string | undefined {
  if (request.output === undefined) return undefined;
  const mode =
    parseAnthropicProviderOptions(request).structuredOutput ?? defaults.structuredOutput ?? 'native';
  return mode === 'tool' ? outputToolName(request.output) : undefined;
}

/**
 * The Messages API body for a request. Parts the model cannot take are refused first
 * (`UNSUPPORTED_CONTENT`, nothing sent). `temperature`, `topP` and `seed` are not sent: the
 * Messages API this SDK describes has no sampling parameters (and never had a seed). Thinking
 * is not sent while a tool loop begun without thinking is open (`canThinkInToolLoop`).
 */
export function buildAnthropicRequest(
  request: ModelRequest,
  defaults: AnthropicRequestDefaults,
): MessageCreateParamsNonStreaming {
  assertSupportedParts(request.messages, {
    provider: 'anthropic',
    modelId: defaults.model,
    mediaTypes: ANTHROPIC_INPUT_MEDIA_TYPES,
    urls: true,
    inToolResults: true,
  });
  const options = parseAnthropicProviderOptions(request);
  const converted = convertToAnthropicMessages(request.messages);
  // Thinking is left out while a tool loop that began without it is still open.
  const thinking =
    options.thinking?.type !== 'enabled' || canThinkInToolLoop(converted.messages)
      ? options.thinking
      : undefined;
  const { promptCaching } = options;
  const tools = prepareAnthropicTools(request.tools, request.toolChoice);
  // Structured output asked for with a forced tool rather than output_config.
  const toolOutput = structuredOutputTool(request, defaults) === undefined ? undefined : request.output;
  const thinkingOn = thinking !== undefined && thinking.type !== 'disabled';
  const prompt = placeCacheBreakpoints(
    { ...converted, ...(toolOutput === undefined ? tools : addOutputTool(toolOutput, tools, thinkingOn)) },
    mergePromptCaching(defaults.promptCaching ?? false, promptCaching),
  );
  const outputConfig =
    toolOutput === undefined ? anthropicOutputConfig(request.output, prompt.messages) : undefined;
  const stopSequences = request.settings?.stopSequences;
  return {
    model: defaults.model,
    // Anthropic requires max_tokens on every request.
    max_tokens: request.settings?.maxOutputTokens ?? defaults.maxOutputTokens,
    ...definedFields({ system: prompt.system }),
    messages: prompt.messages,
    ...definedFields({ tools: prompt.tools, tool_choice: prompt.tool_choice }),
    ...(stopSequences === undefined || stopSequences.length === 0 ? {} : { stop_sequences: stopSequences }),
    ...definedFields({ thinking, output_config: outputConfig }),
  };
}
