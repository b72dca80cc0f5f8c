import { CairnError, definedFields, type ModelRequest } from '@cairn/core';
import type {
  ResponseCreateParamsBase,
  Tool,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
import { prepareOpenAIResponseFormat } from './prepare-openai-response-format.js';
import { prepareOpenAITools } from './prepare-openai-tools.js';

/** The request body without `stream`: the same for `generate` and `stream`. */
export type OpenAIResponsesRequestBody = Omit<ResponseCreateParamsBase, 'stream'>;

export interface OpenAIResponsesBodyOptions {
  model: string;
  /** Ask for reasoning summaries and the encrypted reasoning (reasoning models only). */
  reasoning: boolean;
  store: boolean;
}

/**
 * The Responses API body of a request. Nothing is kept on OpenAI's side by default (`store:
 * false`): the conversation is sent whole each turn, and a reasoning model's reasoning comes back
 * encrypted (`include: ['reasoning.encrypted_content']`) to be replayed. Tools and structured output
 * are the Chat adapter's (`prepareOpenAITools`, `prepareOpenAIResponseFormat`, strict schemas
 * included) in the Responses shape. The API has no stop sequences (`INVALID_ARGUMENT`, so none is
 * silently ignored) and no seed (not sent). `providerOptions.openai` is merged in as extra body
 * fields (`reasoning: { effort }`, `service_tier`) and may override all but the model and input.
 */
export function buildOpenAIResponsesRequestBody(
  request: ModelRequest,
  options: OpenAIResponsesBodyOptions,
): OpenAIResponsesRequestBody {
  const { maxOutputTokens, temperature, topP, stopSequences } = request.settings ?? {};
  if (stopSequences !== undefined && stopSequences.length > 0) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'openai: the Responses API has no stop sequences; use createOpenAIAdapter (Chat Completions) for them',
      { details: { provider: 'openai', path: 'settings.stopSequences' } },
    );
  }
  const { tools, tool_choice } = prepareOpenAITools(request.tools, request.toolChoice);
  const format = prepareOpenAIResponseFormat(request.output).response_format?.json_schema;
  return {
    ...definedFields({
      max_output_tokens: maxOutputTokens,
      temperature,
      top_p: topP,
      tools: tools?.map(
        (tool): Tool => ({
          type: 'function',
          name: tool.function.name,
          ...definedFields({ description: tool.function.description }),
          parameters: tool.function.parameters ?? null,
          // Responses function tools are strict unless told otherwise; tool schemas are sent as given.
          strict: false,
        }),
      ),
      tool_choice: tool_choice === undefined ? undefined : responsesToolChoice(tool_choice),
    }),
    ...(format === undefined
      ? {}
      : {
          text: {
            format: {
              type: 'json_schema',
              name: format.name,
              schema: format.schema ?? {},
              strict: format.strict ?? null,
              ...definedFields({ description: format.description }),
            },
          },
        }),
    ...(options.reasoning
      ? { reasoning: { summary: 'auto' }, include: ['reasoning.encrypted_content'] }
      : {}),
    store: options.store,
    ...request.providerOptions?.openai,
    model: options.model,
    input: convertToOpenAIResponsesInput(request.messages),
  } as OpenAIResponsesRequestBody;
}

type ChatToolChoice = NonNullable<ReturnType<typeof prepareOpenAITools>['tool_choice']>;

function responsesToolChoice(choice: ChatToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  if (typeof choice === 'string') return choice as ToolChoiceOptions;
  if (choice.type === 'function') return { type: 'function', name: choice.function.name };
  throw new CairnError('INVALID_ARGUMENT', 'openai: this tool choice has no Responses form', {
    details: { provider: 'openai', path: 'toolChoice' },
  });
}
