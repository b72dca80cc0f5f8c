import { describeModel, type ResolvedModel, resolveModel } from '@cairn/connect';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoFallback } from './demo-fallback.js';

// No local server is probed, and the demo does not pause between chunks.
const ENV = { CAIRN_LOCAL_BASE_URL: 'off', CAIRN_DEMO_DELAY_MS: '0' };

describe('the demo fallback', () => {
  let resolved: ResolvedModel | undefined;
  afterEach(async () => {
    await resolved?.close();
    resolved = undefined;
  });

  it('is the model when nothing is configured', async () => {
    resolved = await resolveModel({}, ENV, { fallback: () => startDemoFallback(ENV) });
    expect(resolved).toMatchObject({
      provider: 'demo',
      modelId: 'cairn-demo',
      source: 'no API key found',
      demo: true,
    });
    const answer = await resolved.adapter.generate({ messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.message.role).toBe('assistant');
  });

  it('says the demo is a scripted offline tour, not a model, and how to use a real one', async () => {
    resolved = await resolveModel({}, ENV, { fallback: () => startDemoFallback(ENV) });
    const banner = describeModel(resolved);
    expect(banner).toContain('offline demo (no API key found)');
    expect(banner).toContain('not a language model');
    for (const hint of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GEMINI_API_KEY',
      '--provider',
      '--base-url',
    ]) {
      expect(banner).toContain(hint);
    }
  });
});
