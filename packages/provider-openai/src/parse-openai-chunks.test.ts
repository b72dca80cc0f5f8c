import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { parseOpenAIChunks } from './parse-openai-chunks.js';

async function collect(body: string, headers: Record<string, string> = {}) {
  const chunks: unknown[] = [];
  try {
    for await (const chunk of parseOpenAIChunks(new Response(body, { headers }))) chunks.push(chunk);
  } catch (error) {
    return { chunks, error: error as CairnError };
  }
  return { chunks, error: undefined };
}

describe('parseOpenAIChunks', () => {
  it('yields each data line as a chunk and stops at [DONE]', async () => {
    const { chunks, error } = await collect(
      'data: {"id":"a"}\r\n\r\n: keep-alive\n\ndata: {"id":"b"}\n\ndata: [DONE]\n\ndata: {"id":"c"}\n\n',
    );
    expect(error).toBeUndefined();
    expect(chunks).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('fails with LLM_BAD_RESPONSE keeping a malformed line as raw', async () => {
    for (const line of ['{"oops": this is not JSON', '[1,2]', 'null']) {
      const { chunks, error } = await collect(`data: {"id":"a"}\n\ndata: ${line}\n\n`);
      expect(chunks).toEqual([{ id: 'a' }]);
      expect(CairnError.is(error, 'LLM_BAD_RESPONSE')).toBe(true);
      expect(error?.details).toEqual({ provider: 'openai', raw: line });
    }
  });

  it('classifies an error sent inside the stream', async () => {
    const openai = await collect(
      'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n',
    );
    expect(openai.error?.code).toBe('LLM_UNAVAILABLE');
    expect(openai.error?.retryable).toBe(true);
    // vLLM puts the HTTP status in `code`.
    const vllm = await collect(
      'data: {"error":{"object":"error","message":"This model\'s maximum context length is 4096 tokens","type":"BadRequestError","code":400}}\n\n',
    );
    expect(vllm.error?.code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(vllm.error?.details).toEqual({ status: 400, provider: 'openai' });
  });

  it('refuses a response without a body', async () => {
    await expect(parseOpenAIChunks(new Response(null)).next()).rejects.toMatchObject({
      code: 'LLM_BAD_RESPONSE',
    });
  });
});
