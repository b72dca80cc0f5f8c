import { describeModel, type ModelSettings, type ResolvedModel } from '@cairn/connect';
import { CairnError, type ModelAdapter } from '@cairn/core';
import { cairnErrorThrownBy } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { parseModelTarget, switchModel } from './model-switch.js';

const model = (
  provider: ResolvedModel['provider'],
  modelId: string,
  source = 'OPENAI_API_KEY',
): ResolvedModel => ({
  adapter: {} as ModelAdapter,
  provider,
  modelId,
  source,
  demo: provider === 'demo',
  close: async () => {},
});

const openai = model('openai', 'gpt-4.1-mini');

describe('parseModelTarget', () => {
  it('takes a provider name alone as that provider (its default model)', () => {
    expect(parseModelTarget('anthropic', openai)).toEqual({ provider: 'anthropic' });
    expect(parseModelTarget(' gemini: ', openai)).toEqual({ provider: 'gemini' });
  });

  it('takes provider:id, keeping the colons of the id', () => {
    expect(parseModelTarget('gemini:gemini-2.5-flash', openai)).toEqual({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
    });
    expect(parseModelTarget('openai:ft:gpt-4.1-mini:acme::x1', openai)).toEqual({
      provider: 'openai',
      model: 'ft:gpt-4.1-mini:acme::x1',
    });
    expect(parseModelTarget('openai-compatible:qwen3:8b', openai)).toEqual({
      provider: 'openai-compatible',
      model: 'qwen3:8b',
    });
  });

  it('takes any other word as a model of the current provider', () => {
    expect(parseModelTarget('gpt-4.1', openai)).toEqual({ provider: 'openai', model: 'gpt-4.1' });
    // A local server's ids carry tags.
    const local = model('openai-compatible', 'llama3.2', 'OPENAI_BASE_URL');
    expect(parseModelTarget('qwen3:8b', local)).toEqual({ provider: 'openai-compatible', model: 'qwen3:8b' });
  });

  it('refuses an unknown provider, and a model id for the offline demo, with the way to name one', () => {
    const unknown = cairnErrorThrownBy(() => parseModelTarget('mistral:large', openai));
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(unknown.message).toBe('unknown provider "mistral"');
    expect(unknown.details?.fix).toContain('openai, anthropic, gemini, openai-compatible');
    const demo = model('demo', 'tour', 'nothing configured');
    expect(cairnErrorThrownBy(() => parseModelTarget('gpt-4.1', demo)).message).toBe(
      'the offline demo has no other models',
    );
    expect(parseModelTarget('anthropic', demo)).toEqual({ provider: 'anthropic' });
  });

  it('refuses a typo of a provider name, saying which provider it is near', () => {
    const typo = cairnErrorThrownBy(() => parseModelTarget('antropic', openai));
    expect(typo.message).toBe('unknown provider "antropic"');
    expect(typo.details?.fix).toMatch(/^did you mean anthropic\? /);
    expect(cairnErrorThrownBy(() => parseModelTarget('Gemni', openai)).details?.fix).toMatch(
      /did you mean gemini\?/,
    );
  });
});

describe('switchModel', () => {
  const session = (settings: ModelSettings, resolved = openai) => ({
    model: resolved,
    settings: { model: settings } as Parameters<typeof switchModel>[1]['settings'],
  });

  it("switches provider with that provider's key from the environment, labelled as from /model", async () => {
    const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' };
    const next = await switchModel({ provider: 'anthropic' }, session({}), openai, env);
    expect(describeModel(next)).toBe('model: anthropic claude-sonnet-5-5 (from /model)');
    const gemini = await switchModel({ provider: 'gemini', model: 'gemini-2.5-pro' }, session({}), next, {
      GEMINI_API_KEY: 'g',
    });
    expect(describeModel(gemini)).toBe('model: gemini gemini-2.5-pro (from /model)');
  });

  it("goes back to the session's own model, and keeps the session's key for its own provider only", async () => {
    const flagged = session({ provider: 'openai', providerFrom: '--provider', apiKey: 'sk-flag' });
    expect(await switchModel({ provider: 'openai' }, flagged, model('anthropic', 'x'), {})).toBe(openai);
    const other = await switchModel({ provider: 'openai', model: 'gpt-4.1' }, flagged, openai, {});
    expect(describeModel(other)).toBe('model: openai gpt-4.1 (from /model)');
    const refused = await switchModel({ provider: 'anthropic' }, flagged, openai, {}).catch(
      (error: unknown) => error,
    );
    expect(CairnError.is(refused, 'LLM_AUTH')).toBe(true);
    expect((refused as CairnError).message).toBe('anthropic needs an API key');
    expect((refused as CairnError).details?.fix).toBe(
      'set ANTHROPIC_API_KEY or pass --api-key; the chat stays on openai gpt-4.1-mini',
    );
  });
});
