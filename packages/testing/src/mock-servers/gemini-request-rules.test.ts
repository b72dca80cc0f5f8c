import { describe, expect, it } from 'vitest';
import { GEMINI_REQUEST_SIZE_LIMIT, geminiRequestProblem } from './gemini-request-rules.js';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAMAAAAC';
const user = (...parts: unknown[]) => ({ role: 'user', parts });
const problem = (parts: unknown[], extra: Record<string, unknown> = {}) =>
  geminiRequestProblem({ contents: [user(...parts)], ...extra });

describe('geminiRequestProblem: parts', () => {
  it('accepts text, inline images and documents, and file URIs Gemini fetches', () => {
    expect(
      problem([
        { text: 'What is in these?' },
        { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
        { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjc' } },
        { fileData: { mimeType: 'video/mp4', fileUri: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' } },
        {
          fileData: {
            mimeType: 'application/pdf',
            fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc123',
          },
        },
      ]),
    ).toBeUndefined();
  });

  it('refuses a part with no data field or with two, as the oneof does', () => {
    expect(problem([{ thought: true }])).toBe(
      "* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field",
    );
    expect(problem([{ text: 'x', inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }])).toBe(
      "Invalid value at 'contents[0].parts[0]' (oneof), oneof field 'data' is already set. Cannot overwrite with 'inline_data'",
    );
    // A thought signature sits beside the data, not in the oneof.
    expect(
      geminiRequestProblem({
        contents: [user({ text: 'hi' }), { role: 'model', parts: [{ text: 'ok', thoughtSignature: 'sig' }] }],
      }),
    ).toBeUndefined();
  });

  it('refuses media types the API does not take, and a missing one', () => {
    expect(problem([{ inlineData: { mimeType: 'image/gif', data: 'R0lGODlh' } }])).toBe(
      'Unsupported MIME type: image/gif',
    );
    expect(
      problem([{ fileData: { mimeType: 'application/zip', fileUri: 'https://example.com/a.zip' } }]),
    ).toBe('Unsupported MIME type: application/zip');
    expect(problem([{ inlineData: { data: PNG_BASE64 } }])).toContain('mime_type must be specified');
  });

  it('refuses base64 that does not decode, and empty data', () => {
    for (const data of ['iVBOR!w0', 'iVBORw0KG', '', 'ab=c']) {
      expect(problem([{ inlineData: { mimeType: 'image/png', data } }]), data).toContain(
        "Invalid value at 'contents[0].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed",
      );
    }
    // Proto JSON takes URL-safe and unpadded base64 too.
    expect(problem([{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGg-_' } }])).toBeUndefined();
    expect(problem([{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGg' } }])).toBeUndefined();
  });

  it('refuses a file URI it cannot fetch', () => {
    for (const fileUri of ['file:///etc/passwd', 'http://example.com/a.png', 'report.pdf', '']) {
      expect(problem([{ fileData: { mimeType: 'image/png', fileUri } }]), fileUri).toContain(
        'Invalid or unsupported file uri',
      );
    }
  });

  it('takes inline images and documents nested in a function response, never a file URI there', () => {
    const call = { role: 'model', parts: [{ functionCall: { name: 'shot', args: {} } }] };
    const answer = (parts: unknown[]) =>
      geminiRequestProblem({
        contents: [
          user({ text: 'go' }),
          call,
          user({ functionResponse: { name: 'shot', response: { content: '' }, parts } }),
        ],
      });
    expect(answer([{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }])).toBeUndefined();
    expect(answer([{ inlineData: { mimeType: 'audio/mp3', data: 'SUQz' } }])).toBe(
      'Unsupported MIME type: audio/mp3',
    );
    expect(answer([{ fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png' } }])).toContain(
      'file_data is not supported in Gemini API',
    );
  });

  it(`refuses a request over ${GEMINI_REQUEST_SIZE_LIMIT} bytes, counting inline data`, () => {
    const data = 'A'.repeat(GEMINI_REQUEST_SIZE_LIMIT);
    expect(problem([{ inlineData: { mimeType: 'image/png', data } }])).toBe(
      `Request payload size exceeds the limit: ${GEMINI_REQUEST_SIZE_LIMIT} bytes.`,
    );
    const under = 'A'.repeat(GEMINI_REQUEST_SIZE_LIMIT - 1024);
    expect(problem([{ inlineData: { mimeType: 'image/png', data: under } }])).toBeUndefined();
  });
});

describe('geminiRequestProblem: structured output', () => {
  const json = { responseMimeType: 'application/json' };
  const schema = { type: 'object', properties: { title: { type: 'string' } }, propertyOrdering: ['title'] };

  it('takes a response schema with JSON output', () => {
    expect(
      problem([{ text: 'x' }], { generationConfig: { ...json, responseSchema: schema } }),
    ).toBeUndefined();
    expect(problem([{ text: 'x' }], { generationConfig: json })).toBeUndefined();
  });

  it('refuses a schema without JSON output, two schemas, an unknown type and keywords outside the subset', () => {
    expect(problem([{ text: 'x' }], { generationConfig: { responseSchema: schema } })).toContain(
      'response_mime_type must be application/json',
    );
    expect(
      problem([{ text: 'x' }], {
        generationConfig: { ...json, responseSchema: schema, responseJsonSchema: schema },
      }),
    ).toContain('cannot both be set');
    expect(problem([{ text: 'x' }], { generationConfig: { responseMimeType: 'application/pdf' } })).toContain(
      'allowed mimetypes are',
    );
    expect(
      problem([{ text: 'x' }], {
        generationConfig: { ...json, responseSchema: { ...schema, additionalProperties: false } },
      }),
    ).toBe(
      'Invalid JSON payload received. Unknown name "additionalProperties" at \'generation_config.response_schema\': Cannot find field.',
    );
  });
});
