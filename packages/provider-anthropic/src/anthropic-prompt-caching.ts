import type { CacheControlEphemeral, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { CairnError } from '@cairn/core';
import type { AnthropicTurn } from './convert-to-anthropic-messages.js';

/**
 * Where the adapter puts `cache_control` breakpoints. Anthropic caches the exact prompt prefix up
 * to a breakpoint (tools, then system, then messages) and reads it back when a later request
 * starts with the same prefix, at a tenth of the input price.
 */
export interface AnthropicPromptCaching {
  /** A breakpoint on the last tool, so the tool definitions are cached on their own. Default true. */
  tools?: boolean;
  /** A breakpoint on the last system block (tools + system prompt). Default true. */
  system?: boolean;
  /**
   * Breakpoints on the last this many user turns (the history before the model's answer is
   * stable: the next request starts with it). Default 2: the newest turn writes the cache, the one
   * before it is where the previous request wrote it, so a turn that adds more than the API's
   * 20-block lookback still hits. 0 caches no messages.
   */
  messages?: number;
  /** The entries' lifetime: `5m` (the API's default) or `1h` (written at a higher price). */
  ttl?: '5m' | '1h';
}

/** `false` turns caching off; an object adjusts the defaults. */
export type AnthropicPromptCachingOption = AnthropicPromptCaching | false;

/** Anthropic takes at most four breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

const DEFAULT_MESSAGE_BREAKPOINTS = 2;

const invalid = (where: string, problem: string) =>
  new CairnError('INVALID_ARGUMENT', `${where} ${problem}`, { details: { provider: 'anthropic' } });

/** Checks a caching option as given by a user (adapter options or `providerOptions`). */
export function parsePromptCaching(value: unknown, where: string): AnthropicPromptCachingOption | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(where, 'must be false or an object like { messages: 2, ttl: "5m" }');
  }
  const { tools, system, messages, ttl, ...rest } = value as Record<string, unknown>;
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length > 0) throw invalid(where, `has unknown keys: ${unknownKeys.join(', ')}`);
  for (const [key, flag] of [
    ['tools', tools],
    ['system', system],
  ] as const) {
    if (flag !== undefined && typeof flag !== 'boolean')
      throw invalid(`${where}.${key}`, 'must be a boolean');
  }
  if (
    messages !== undefined &&
    (typeof messages !== 'number' ||
      !Number.isInteger(messages) ||
      messages < 0 ||
      messages > MAX_CACHE_BREAKPOINTS)
  ) {
    throw invalid(`${where}.messages`, `must be an integer from 0 to ${MAX_CACHE_BREAKPOINTS}`);
  }
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h')
    throw invalid(`${where}.ttl`, 'must be "5m" or "1h"');
  return value as AnthropicPromptCaching;
}

/** The request's setting over the adapter's: `false` turns caching off, an object adjusts the adapter's. */
export function mergePromptCaching(
  adapter: AnthropicPromptCachingOption,
  request: AnthropicPromptCachingOption | undefined,
): AnthropicPromptCachingOption {
  if (request === undefined) return adapter;
  if (request === false) return false;
  return { ...(adapter === false ? {} : adapter), ...request };
}

interface CacheablePrompt {
  tools?: Tool[];
  system?: TextBlockParam[];
  messages: AnthropicTurn[];
}

/**
 * Puts `cache_control` on the last tool, the last system block and the last block of the last
 * `messages` user turns, at most four in all (the oldest message breakpoints give way). Returns
 * new arrays; the prompt given is not changed.
 */
export function placeCacheBreakpoints<Prompt extends CacheablePrompt>(
  prompt: Prompt,
  caching: AnthropicPromptCachingOption,
): Prompt {
  if (caching === false) return prompt;
  const cacheControl: CacheControlEphemeral =
    caching.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: caching.ttl };
  const mark = <Block extends object>(blocks: readonly Block[]): Block[] =>
    blocks.map((block, index) =>
      index === blocks.length - 1 ? { ...block, cache_control: cacheControl } : block,
    );

  const result: Prompt = { ...prompt };
  let budget = MAX_CACHE_BREAKPOINTS;
  if (caching.tools !== false && prompt.tools !== undefined && prompt.tools.length > 0) {
    result.tools = mark(prompt.tools);
    budget -= 1;
  }
  if (caching.system !== false && prompt.system !== undefined && prompt.system.length > 0) {
    result.system = mark(prompt.system);
    budget -= 1;
  }
  let remaining = Math.min(budget, caching.messages ?? DEFAULT_MESSAGE_BREAKPOINTS);
  const turns = [...prompt.messages];
  for (let index = turns.length - 1; index >= 0 && remaining > 0; index -= 1) {
    const turn = turns[index];
    if (turn?.role !== 'user' || turn.content.length === 0) continue;
    turns[index] = { ...turn, content: mark(turn.content) };
    remaining -= 1;
  }
  result.messages = turns;
  return result;
}
