import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import { CairnError, type ModelOutputFormat } from '@cairn/core';
import type { AnthropicTurn } from './convert-to-anthropic-messages.js';

/**
 * Structured output as Anthropic's native `output_config.format` (`json_schema`): the model's
 * answer is one JSON text matching the schema, returned and streamed as ordinary text. The schema
 * goes through the SDK's `transformJSONSchema`, which does what the API requires (every object
 * `additionalProperties: false`, `oneOf` as `anyOf`) and moves the constraints the API does not
 * enforce (`minLength`, `minimum`, …) into descriptions; the caller's validation still checks them.
 * A conversation ending with an assistant turn (a prefill) cannot take it: `INVALID_ARGUMENT`.
 */
export function anthropicOutputConfig(
  output: ModelOutputFormat | undefined,
  turns: readonly AnthropicTurn[],
): OutputConfig | undefined {
  if (output === undefined) return undefined;
  if (output.type !== 'json') {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `anthropic: output type ${String(output.type)} is not supported`,
    );
  }
  if (turns.at(-1)?.role === 'assistant') {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'anthropic: structured output cannot continue an assistant prefill; end the conversation with a user or tool message',
    );
  }
  let schema: Record<string, unknown>;
  try {
    schema = transformJSONSchema(output.schema);
  } catch (error) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `anthropic: the output schema cannot be used for structured output: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return { format: { type: 'json_schema', schema } };
}
