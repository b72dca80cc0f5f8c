import { describe, expect, it } from 'vitest';
import { openAIRequestProblem } from './openai-request-rules.js';

const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';
const pdf = 'data:application/pdf;base64,JVBERi0xLjQK';
const user = (...content: unknown[]) => ({ role: 'user', content });
const problem = (...messages: unknown[]) => openAIRequestProblem({ model: 'm', messages });

describe('openAIRequestProblem: content parts', () => {
  it('accepts text, https and data-URL images and named PDFs in user messages, text parts elsewhere', () => {
    expect(
      problem(
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        user(
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: png } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg', detail: 'low' } },
          { type: 'file', file: { filename: 'a.pdf', file_data: pdf } },
          { type: 'file', file: { file_id: 'file-abc' } },
        ),
        { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }] },
      ),
    ).toBeUndefined();
  });

  it('refuses media outside user messages, with the API messages', () => {
    const image = { type: 'image_url', image_url: { url: png } };
    const call = { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } };
    expect(problem({ role: 'system', content: [image] })).toContain(
      "only allowed for messages with role 'user'",
    );
    expect(
      problem(
        user({ type: 'text', text: 'hi' }),
        { role: 'assistant', content: null, tool_calls: [call] },
        {
          role: 'tool',
          tool_call_id: 'c1',
          content: [image],
        },
      ),
    ).toContain("this message with role 'tool' contains an image URL");
    expect(
      problem({ role: 'system', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: pdf } }] }),
    ).toBe("Invalid value: 'file'. Supported values are: 'text'.");
  });

  it('refuses malformed parts', () => {
    const image = (url: string) => user({ type: 'image_url', image_url: { url } });
    expect(problem(image('data:image/svg+xml;base64,PHN2Zz4='))).toContain(
      "unsupported MIME type 'image/svg+xml'",
    );
    expect(problem(image('data:image/png;base64,iVBORw0KGgo'))).toContain(
      'Expected a base64-encoded data URL',
    );
    expect(problem(image('ftp://example.com/a.png'))).toContain('Expected a valid URL');
    expect(problem(image('data:image/png,raw'))).toContain('Expected a valid URL');
    expect(problem(user({ type: 'file', file: { filename: 'a.pdf', file_data: 'JVBERi0xLjQK' } }))).toContain(
      "Invalid 'messages[0].content[0].file.file_data'",
    );
    expect(problem(user({ type: 'file', file: { file_data: pdf } }))).toContain(
      "Missing required parameter: 'messages[0].content[0].file.filename'",
    );
    expect(problem(user({ type: 'input_video', data: 'x' }))).toContain("Invalid value: 'input_video'");
    expect(problem(user())).toContain('empty array');
  });
});

describe('openAIRequestProblem: response_format', () => {
  const withFormat = (response_format: unknown) =>
    openAIRequestProblem({ model: 'm', messages: [{ role: 'user', content: 'hi' }], response_format });
  const strict = (schema: unknown, name = 'answer') =>
    withFormat({ type: 'json_schema', json_schema: { name, schema, strict: true } });
  const closed = (properties: Record<string, unknown>, extra = {}) => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });

  it('accepts text, json_object, a non-strict schema and a strict-compatible one', () => {
    expect(withFormat({ type: 'text' })).toBeUndefined();
    expect(withFormat({ type: 'json_object' })).toBeUndefined();
    expect(
      withFormat({ type: 'json_schema', json_schema: { name: 'x', schema: { type: 'array' } } }),
    ).toBeUndefined();
    expect(
      strict(
        closed(
          {
            a: { type: ['string', 'null'], format: 'date-time' },
            b: { type: 'array', items: closed({ c: { enum: [1, 2] } }) },
            d: { anyOf: [{ $ref: '#/$defs/p' }, { type: 'null' }] },
          },
          { $defs: { p: closed({ x: { type: 'number', minimum: 0 } }) } },
        ),
      ),
    ).toBeUndefined();
  });

  it('refuses a schema strict mode does not take, with the 400 OpenAI returns', () => {
    const prefix = "Invalid schema for response_format 'answer': ";
    expect(strict({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toBe(
      `${prefix}In context=(), 'additionalProperties' is required to be supplied and to be false.`,
    );
    expect(
      strict({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'number' } },
        required: ['a'],
        additionalProperties: false,
      }),
    ).toBe(
      `${prefix}In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'.`,
    );
    expect(strict(closed({ a: { type: 'array', items: { type: 'object', properties: {} } } }))).toBe(
      `${prefix}In context=('properties', 'a', 'items'), 'additionalProperties' is required to be supplied and to be false.`,
    );
    expect(strict(closed({ a: { type: 'string', minLength: 1 } }))).toBe(
      `${prefix}In context=('properties', 'a'), 'minLength' is not permitted.`,
    );
    expect(strict(closed({ a: { oneOf: [{ type: 'string' }] } }))).toContain("'oneOf' is not permitted");
    expect(strict(closed({ a: {} }))).toContain("schema must have a 'type' key");
    expect(strict(closed({ a: { type: 'string', format: 'uri' } }))).toContain("'uri' is not a valid format");
    expect(strict({ type: 'array', items: { type: 'string' } })).toBe(
      `${prefix}schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`,
    );
    expect(strict(closed({}), 'has space')).toContain("'response_format.json_schema.name'");
    expect(withFormat({ type: 'json_schema', json_schema: { schema: {} } })).toContain('json_schema.name');
    expect(withFormat({ type: 'xml' })).toContain("Invalid value: 'xml'");
  });
});
