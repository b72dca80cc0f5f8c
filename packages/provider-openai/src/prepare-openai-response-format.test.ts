import { describe, expect, it } from 'vitest';
import { buildOpenAIRequestBody } from './openai-request-body.js';
import { prepareOpenAIResponseFormat } from './prepare-openai-response-format.js';

const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
const strictSchema = { ...schema, additionalProperties: false };

describe('prepareOpenAIResponseFormat', () => {
  it('sends nothing without output', () => {
    expect(prepareOpenAIResponseFormat(undefined)).toEqual({});
  });

  it('sends a strict json_schema named output by default, with the description when given', () => {
    expect(prepareOpenAIResponseFormat({ type: 'json', schema })).toEqual({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'output', schema: strictSchema, strict: true },
      },
    });
    expect(
      prepareOpenAIResponseFormat({ type: 'json', schema, name: 'A report: v2', description: 'The report' })
        .response_format?.json_schema,
    ).toMatchObject({ name: 'A_report__v2', description: 'The report' });
    expect(
      prepareOpenAIResponseFormat({ type: 'json', schema, name: 'x'.repeat(80) }).response_format?.json_schema
        .name,
    ).toHaveLength(64);
    expect(
      prepareOpenAIResponseFormat({ type: 'json', schema, name: '' }).response_format?.json_schema.name,
    ).toBe('output');
  });

  it('sends a schema strict mode cannot express as it is, without strict', () => {
    const list = { type: 'array', items: { type: 'string' } };
    expect(prepareOpenAIResponseFormat({ type: 'json', schema: list }).response_format?.json_schema).toEqual({
      name: 'output',
      schema: list,
      strict: false,
    });
  });

  it('is replaced by a response_format in providerOptions.openai', () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const body = buildOpenAIRequestBody(
      {
        messages,
        output: { type: 'json', schema },
        providerOptions: { openai: { response_format: { type: 'json_object' } } },
      },
      'm',
      'max_tokens',
    );
    expect(body.response_format).toEqual({ type: 'json_object' });
  });
});
