import { CairnError } from '@cairn/core';
import { bareModelId } from './bare-model-id.js';
import type { CalibratedTokenizer } from './calibrated-tokenizer.js';
import { createEstimatingTokenizer } from './create-estimating-tokenizer.js';
import { createOpenAITokenizer } from './create-openai-tokenizer.js';
import type { EstimateFamily } from './estimate-profile.js';
import { OPENAI_MODEL } from './openai-encoding.js';

/** A model id (`gpt-4o`, `claude-sonnet-4-5`, `openai/gpt-4.1`) or a provider with its model. */
export type TokenizerModel = string | { provider: string; model: string };

/** Which tokenizer a model id gets: OpenAI's exact one, or an estimate of a family. */
export type TokenizerKind = 'openai' | EstimateFamily;

// Adapter and agent-CLI provider names (`ModelAdapter.provider`, AgentOutput's `provider`).
const PROVIDER_KINDS: ReadonlyMap<string, TokenizerKind> = new Map([
  ['openai', 'openai'],
  ['anthropic', 'anthropic'],
  ['claude-code', 'anthropic'],
  ['gemini', 'gemini'],
  ['gemini-cli', 'gemini'],
  ['google', 'gemini'],
]);

/**
 * The tokenizer kind of a model id, case-insensitive, after any `vendor/` or `models/` prefix:
 * OpenAI ids (`gpt-*`, `chatgpt-*`, `o1`, `o3-mini`, `o4-mini`, …) → `openai`; `claude-*` (also
 * Bedrock's `anthropic.claude-*`) → `anthropic`; `gemini-*` → `gemini`; anything else → `generic`.
 */
export function tokenizerKindOfModel(model: string): TokenizerKind {
  const id = bareModelId(model);
  if (OPENAI_MODEL.test(id)) return 'openai';
  if (/(^|\.)claude-/.test(id)) return 'anthropic';
  if (id.startsWith('gemini-')) return 'gemini';
  return 'generic';
}

/**
 * The right tokenizer for a model: exact counts for OpenAI models, calibrated estimates for Claude,
 * Gemini and anything else. With `{ provider, model }`, a known provider (`openai`, `anthropic`,
 * `gemini`, `claude-code`, `gemini-cli`) decides; other providers (routers, gateways) go by model.
 * Create one per conversation: calibration learns that conversation's overhead.
 */
export function createTokenizer(model: TokenizerModel): CalibratedTokenizer {
  const { provider, id } =
    typeof model === 'string'
      ? { provider: undefined, id: model }
      : { provider: model?.provider, id: model?.model };
  if (typeof id !== 'string' || id === '') {
    throw new CairnError('INVALID_ARGUMENT', 'createTokenizer needs a model id or { provider, model }', {
      details: { model },
    });
  }
  const kind =
    (typeof provider === 'string' ? PROVIDER_KINDS.get(provider) : undefined) ?? tokenizerKindOfModel(id);
  return kind === 'openai'
    ? createOpenAITokenizer({ model: id })
    : createEstimatingTokenizer({ family: kind });
}
