import { definedFields, type ModelOutputFormat } from '@cairn/core';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { toOpenAIStrictSchema } from './openai-strict-schema.js';

/** The request's `response_format`, left out when the request asks for prose. */
export interface OpenAIResponseFormat {
  response_format?: ResponseFormatJSONSchema;
}

// OpenAI's rule for `json_schema.name`: letters, digits, `_` and `-`, at most 64.
const NAME_LIMIT = 64;
const NAME_INVALID = /[^a-zA-Z0-9_-]/g;

/**
 * Structured output as Chat Completions takes it: `response_format: { type: "json_schema" }` with
 * the schema in strict form (`toOpenAIStrictSchema`) and `strict: true`, or `strict: false` with the
 * schema as given when strict mode cannot express it. The name defaults to `output`; characters
 * OpenAI refuses become `_`. The answer comes back as the message's text, streamed like any text.
 */
export function prepareOpenAIResponseFormat(output: ModelOutputFormat | undefined): OpenAIResponseFormat {
  if (output === undefined) return {};
  const { schema, strict } = toOpenAIStrictSchema(output.schema);
  const name = (output.name ?? '').replace(NAME_INVALID, '_').slice(0, NAME_LIMIT) || 'output';
  return {
    response_format: {
      type: 'json_schema',
      json_schema: {
        name,
        schema,
        strict,
        ...definedFields({ description: output.description }),
      },
    },
  };
}
