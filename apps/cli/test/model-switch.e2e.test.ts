import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

const servers: MockProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('/model in the chat', () => {
  it('switches to another provider with its key from the environment, refuses what it cannot use, and comes back', async () => {
    const openai = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'Hello from the OpenAI mock.' }, { text: 'Back on the OpenAI mock.' }],
    });
    const anthropic = await startMockProviderServer({
      provider: 'anthropic',
      turns: [{ text: 'Hello from the Anthropic mock.' }],
    });
    servers.push(openai, anthropic);
    const dataDir = tempDir('model-switch');
    const env = mockEnv(dataDir, openai.baseURL, {
      // The provider is set in the environment: the start-up line must say so, not "--provider".
      CAIRN_PROVIDER: 'openai-compatible',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: anthropic.baseURL,
    });
    const lines = [
      'first question',
      '/model anthropic',
      'second question',
      '/model mistral:large',
      '/model gemini',
      '/model openai-compatible',
      'third question',
    ];
    const run = await runCairn(['chat'], { env, input: `${lines.join('\n')}\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('model: openai-compatible mock-model (from CAIRN_PROVIDER)');
    const out = run.stdout;
    const inOrder = [
      'Hello from the OpenAI mock.',
      'model: anthropic claude-sonnet-5-5 (from /model)',
      'Hello from the Anthropic mock.',
      'cairn: unknown provider "mistral" [INVALID_ARGUMENT] — name one: /model anthropic',
      'cairn: gemini needs an API key [LLM_AUTH] — set GEMINI_API_KEY or GOOGLE_API_KEY or pass --api-key; the chat stays on anthropic claude-sonnet-5-5',
      'model: openai-compatible mock-model (from CAIRN_PROVIDER)',
      'Back on the OpenAI mock.',
      'conversation saved',
    ];
    const at = inOrder.map((text) => out.indexOf(text));
    for (const [index, position] of at.entries())
      expect(position, `${inOrder[index]}\n${out}`).toBeGreaterThan(-1);
    expect(at).toEqual([...at].sort((a, b) => a - b));

    // The second turn went to the Anthropic mock, with the conversation so far; the third came back.
    const sentToAnthropic = anthropic.requests.filter((request) => request.path.endsWith('/messages'));
    expect(sentToAnthropic).toHaveLength(1);
    const body = JSON.stringify(sentToAnthropic[0]?.body);
    expect(body).toContain('"model":"claude-sonnet-5-5"');
    expect(body).toContain('first question');
    expect(body).toContain('Hello from the OpenAI mock.');
    expect(body).toContain('second question');
    const sentToOpenAI = chatRequests(openai);
    expect(sentToOpenAI).toHaveLength(2);
    expect(JSON.stringify(sentToOpenAI[1]?.body)).toContain('Hello from the Anthropic mock.');
  }, 60_000);
});
