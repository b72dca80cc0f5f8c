import OpenAI from 'openai';
import type { ResponseInputItem, ResponseReasoningItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { mockServerPerTest } from './mock-server-per-test.js';
import { openAIResponsesRequestProblem } from './openai-responses-request-rules.js';

const mock = mockServerPerTest();

const ENCRYPTED = 'bW9jay1vcGVuYWktZW5jcnlwdGVkLXJlYXNvbmluZzozZGNhOWI1NWI2OTZmNjAwMmZmZjU5ODg=';
const reasoning = (extra: Record<string, unknown> = {}) => ({
  type: 'reasoning',
  id: 'rs_1',
  summary: [],
  encrypted_content: ENCRYPTED,
  ...extra,
});
const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' };
const output = { type: 'function_call_output', call_id: 'call_1', output: 'ok' };
const user = { role: 'user', content: 'Hi' };
const body = (input: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'gpt-5',
  store: false,
  input,
  ...extra,
});

describe('openAIResponsesRequestProblem: reasoning replay', () => {
  it('accepts a reasoning item followed by its call or its message', () => {
    expect(openAIResponsesRequestProblem(body([user, reasoning(), call, output]))).toBeUndefined();
    const message = { type: 'message', id: 'msg_1', role: 'assistant', content: [] };
    expect(openAIResponsesRequestProblem(body([user, reasoning(), message]))).toBeUndefined();
    expect(
      openAIResponsesRequestProblem(body([user, reasoning(), { role: 'assistant', content: 'x' }])),
    ).toBeUndefined();
  });

  it('refuses a reasoning item without its following item, with the API text', () => {
    const expected = "Item 'rs_1' of type 'reasoning' was provided without its required following item.";
    expect(openAIResponsesRequestProblem(body([user, reasoning()]))).toBe(expected);
    expect(openAIResponsesRequestProblem(body([user, reasoning(), user]))).toBe(expected);
    expect(openAIResponsesRequestProblem(body([user, reasoning(), output]))).toBe(expected);
  });

  it('refuses, with store: false, a reasoning item without encrypted content', () => {
    expect(
      openAIResponsesRequestProblem(body([user, reasoning({ encrypted_content: null }), call, output])),
    ).toMatch(/^Item with id 'rs_1' not found\. Items are not persisted when `store` is set to false/);
    // Stored responses are looked up by id instead.
    const stored = body([user, reasoning({ encrypted_content: undefined }), call, output], { store: true });
    expect(openAIResponsesRequestProblem(stored)).toBeUndefined();
  });

  it('refuses encrypted content the mock did not issue', () => {
    for (const forged of [
      'gAAAAB-from-another-org',
      'FOREIGN-SIGNATURE',
      Buffer.from('mock-openai-encrypted-reasoning:zz').toString('base64'),
    ]) {
      expect(
        openAIResponsesRequestProblem(body([user, reasoning({ encrypted_content: forged }), call, output])),
      ).toBe('The encrypted content for item rs_1 could not be verified.');
    }
  });

  it('refuses a function_call_output without its function_call', () => {
    expect(openAIResponsesRequestProblem(body([user, output]))).toBe(
      'No tool call found for function call output with call_id call_1.',
    );
  });

  it('checks a structured-output text.format as strict mode would', () => {
    const format = {
      type: 'json_schema',
      name: 'answer',
      strict: true,
      schema: { type: 'object', properties: { a: { type: 'string' } } },
    };
    expect(openAIResponsesRequestProblem(body([user], { text: { format } }))).toMatch(/additionalProperties/);
  });
});

describe('OpenAI Responses mock: encrypted reasoning through the official SDK', () => {
  it('issues encrypted content when asked, accepts it back, and refuses the item alone', async () => {
    const server = await mock.start({
      provider: 'openai-responses',
      turns: [{ reasoning: 'Think.', text: 'Done.' }, { text: 'Again.' }],
    });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-mock', maxRetries: 0 });
    const first = await client.responses.create({
      model: 'gpt-5',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: 'Hi',
    });
    const item = first.output[0] as ResponseReasoningItem;
    expect(item.encrypted_content).toEqual(expect.any(String));
    await expect(
      client.responses.create({
        model: 'gpt-5',
        store: false,
        input: [{ role: 'user', content: 'Hi' }, ...(first.output as ResponseInputItem[])],
      }),
    ).resolves.toMatchObject({ output_text: 'Again.' });
    const refused = await client.responses
      .create({ model: 'gpt-5', store: false, input: [{ role: 'user', content: 'Hi' }, item] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 400,
      message: expect.stringContaining('without its required following item'),
    });
    expect(server.requests).toHaveLength(3);
  });

  it('sends no encrypted content unless asked', async () => {
    const server = await mock.start({
      provider: 'openai-responses',
      turns: [{ reasoning: 'Think.', text: 'Done.' }],
    });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-mock', maxRetries: 0 });
    const response = await client.responses.create({ model: 'gpt-5', input: 'Hi' });
    expect((response.output[0] as ResponseReasoningItem).encrypted_content).toBeUndefined();
  });
});
