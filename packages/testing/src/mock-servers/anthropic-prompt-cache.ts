import { createHash } from 'node:crypto';
import { base64ToBytes, imageSize } from '@cairn/core';
import { isRecord } from '../is-record.js';

type Block = Record<string, unknown>;

/** How the mock's prompt cache behaves; the defaults are Anthropic's documented ones. */
export interface AnthropicPromptCacheOptions {
  /**
   * The shortest prefix, in tokens, that is cached: 1024 for Sonnet and Opus (the default), 2048
   * for older Haiku models, 4096 for some newer ones. A shorter prefix is neither written nor read.
   */
  minCacheableTokens?: number;
  /** How many blocks before each breakpoint are checked for an earlier write. Default 20. */
  lookbackBlocks?: number;
  /** The clock the entries' lifetimes (5 minutes, or 1 hour with `ttl: '1h'`) run on. Default `Date.now`. */
  now?: () => number;
}

/** The input counts of one answer, as the Messages API reports them. */
export interface AnthropicCacheUsage {
  /** Input tokens neither read from nor written to the cache. */
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** A prompt cache shared by the requests of one mock server. */
export interface AnthropicPromptCache {
  /** Looks the request's prefixes up, writes its breakpoints' prefixes, and says how its input was served. */
  serve(body: unknown): AnthropicCacheUsage;
}

const TTL_MS = { '5m': 5 * 60 * 1000, '1h': 60 * 60 * 1000 } as const;
const IMAGE_URL_TOKENS = 1600;

// Text is counted at 4 characters a token; an image at (width × height) / 750, as Anthropic
// documents (inside a tool result too); a PDF by its base64 text.
function blockTokens(block: Block): number {
  const source = isRecord(block.source) ? block.source : undefined;
  if (block.type === 'image' && source !== undefined) {
    if (source.type !== 'base64' || typeof source.data !== 'string') return IMAGE_URL_TOKENS;
    const size = imageSize(base64ToBytes(source.data));
    return size === undefined ? IMAGE_URL_TOKENS : Math.ceil((size.width * size.height) / 750);
  }
  const { cache_control: _ignored, ...rest } = block;
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    const { content, ...head } = rest;
    const inner = (content as unknown[]).filter(isRecord).reduce((sum, part) => sum + blockTokens(part), 0);
    return Math.ceil(JSON.stringify(head).length / 4) + inner;
  }
  return Math.max(1, Math.ceil(JSON.stringify(rest).length / 4));
}

interface PromptBlock {
  block: Block;
  /** The prefix up to and including this block: its hash and its tokens. */
  key: string;
  tokens: number;
}

const blocksOf = (content: unknown): Block[] => {
  if (Array.isArray(content)) return content.filter(isRecord);
  return typeof content === 'string' && content !== '' ? [{ type: 'text', text: content }] : [];
};

// The cache key of each prefix: the model, then the blocks in cache order (tools, system, then
// messages); tool_choice and thinking settings are part of the messages' prefix, as changing
// them invalidates the cached messages and not the tools or system.
function prefixes(body: Record<string, unknown>): PromptBlock[] {
  const result: PromptBlock[] = [];
  let hash = createHash('sha256').update(String(body.model)).digest('hex');
  let tokens = 0;
  const add = (block: Block) => {
    const { cache_control: _ignored, ...content } = block;
    hash = createHash('sha256').update(hash).update(JSON.stringify(content)).digest('hex');
    tokens += blockTokens(block);
    result.push({ block, key: hash, tokens });
  };
  for (const tool of Array.isArray(body.tools) ? body.tools : []) if (isRecord(tool)) add(tool);
  for (const block of blocksOf(body.system)) add(block);
  hash = createHash('sha256')
    .update(hash)
    .update(JSON.stringify({ tool_choice: body.tool_choice ?? null, thinking: body.thinking ?? null }))
    .digest('hex');
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(message)) continue;
    hash = createHash('sha256').update(hash).update(String(message.role)).digest('hex');
    for (const block of blocksOf(message.content)) add(block);
  }
  return result;
}

/**
 * A prompt cache that follows Anthropic's documented rules: the prefix up to each `cache_control`
 * breakpoint is written when it reaches the minimum length; a later request reads the longest
 * prefix written before (within its lifetime) found at a breakpoint or up to `lookbackBlocks`
 * blocks before one. The tokens before the hit are read, those from there to the last
 * breakpoint are written, the rest are plain input — so a breakpoint on content that changes
 * every request, or on a prefix below the minimum, is served 0% from the cache.
 */
export function createAnthropicPromptCache(options: AnthropicPromptCacheOptions = {}): AnthropicPromptCache {
  const minTokens = options.minCacheableTokens ?? 1024;
  const lookback = options.lookbackBlocks ?? 20;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { expiresAt: number; ttlMs: number }>();

  return {
    serve(body) {
      const record = isRecord(body) ? body : {};
      const blocks = prefixes(record);
      const total = blocks.at(-1)?.tokens ?? 0;
      const at = now();
      const breakpoints = blocks.flatMap((entry, index) => {
        const control = entry.block.cache_control;
        if (!isRecord(control)) return [];
        return [{ index, ttlMs: control.ttl === '1h' ? TTL_MS['1h'] : TTL_MS['5m'] }];
      });

      let hit: number | undefined;
      for (const { index } of breakpoints) {
        for (let candidate = index; candidate >= Math.max(0, index - lookback); candidate -= 1) {
          const entry = entries.get(blocks[candidate]?.key ?? '');
          if (entry !== undefined && entry.expiresAt > at) {
            if (hit === undefined || candidate > hit) hit = candidate;
            break;
          }
        }
      }
      const read = hit === undefined ? 0 : (blocks[hit]?.tokens ?? 0);
      if (hit !== undefined) {
        const key = blocks[hit]?.key ?? '';
        const entry = entries.get(key);
        if (entry !== undefined) entry.expiresAt = at + entry.ttlMs;
      }

      let written = read;
      for (const { index, ttlMs } of breakpoints) {
        const prefix = blocks[index];
        if (prefix === undefined || prefix.tokens < minTokens) continue;
        // An entry written with both lifetimes keeps the longer one.
        const ttl = Math.max(ttlMs, entries.get(prefix.key)?.ttlMs ?? 0);
        entries.set(prefix.key, { expiresAt: at + ttl, ttlMs: ttl });
        written = Math.max(written, prefix.tokens);
      }
      return {
        input_tokens: total - written,
        cache_creation_input_tokens: written - read,
        cache_read_input_tokens: read,
      };
    },
  };
}
