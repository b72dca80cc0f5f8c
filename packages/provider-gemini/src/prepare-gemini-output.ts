import type { JsonSchema, ModelOutputFormat } from '@cairn/core';
import { cleanJsonSchema } from '@cairn/provider-utils';
import type { GeminiGenerationConfig } from './gemini-api-types.js';

/**
 * Structured output as Gemini's JSON mode: `responseMimeType: 'application/json'` and the schema as
 * `responseSchema`, cleaned to the OpenAPI 3.0 subset Gemini takes (as tool parameters are), its
 * `description` the output's when the schema has none. Every object lists its properties in
 * `propertyOrdering`, so the model writes them in the schema's order (Gemini otherwise orders them
 * alphabetically) and a streamed partial object fills in as the schema reads. The JSON comes back
 * as the answer's text.
 */
export function prepareGeminiOutput(
  output: ModelOutputFormat,
): Required<Pick<GeminiGenerationConfig, 'responseMimeType' | 'responseSchema'>> {
  const schema = cleanJsonSchema(output.schema, { target: 'gemini' });
  if (output.description !== undefined && schema.description === undefined) {
    schema.description = output.description;
  }
  return { responseMimeType: 'application/json', responseSchema: withPropertyOrdering(schema) };
}

function withPropertyOrdering(schema: JsonSchema): JsonSchema {
  const ordered: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      ordered.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, descend(property)]),
      );
      ordered.propertyOrdering = Object.keys(value);
    } else if (key === 'items' || key === 'anyOf') ordered[key] = descend(value);
    else ordered[key] = value;
  }
  return ordered;
}

function descend(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(descend);
  return isSchema(value) ? withPropertyOrdering(value) : value;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
