import { describe, expect, it } from 'vitest';
import { createAnthropicPromptCache } from './anthropic-prompt-cache.js';

const BP = { type: 'ephemeral' } as const;
// About 250 tokens of text (4 characters a token).
const long = (label: string) => `${label}: ${'lorem ipsum '.repeat(83)}`;
const text = (value: string, cached = false) => ({
  type: 'text',
  text: value,
  ...(cached ? { cache_control: BP } : {}),
});

const tools = [{ name: 'read', description: long('read a file'), input_schema: { type: 'object' } }];
const system = (cached = true) => [text(long('system prompt'), cached)];
function body(turns: number, { cacheLast = true, extra = {} as Record<string, unknown> } = {}) {
  const messages = Array.from({ length: turns }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: [text(long(`turn ${index}`), cacheLast && index === turns - 1)],
  }));
  return { model: 'claude-test', max_tokens: 100, tools, system: system(), messages, ...extra };
}
const total = (usage: {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}) => usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;

describe('createAnthropicPromptCache', () => {
  it('writes the prefix at a breakpoint and reads it back on the next request', () => {
    const cache = createAnthropicPromptCache({ minCacheableTokens: 100 });
    const first = cache.serve(body(5));
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBe(total(first));
    const second = cache.serve(body(7));
    // The first request's whole prompt is the second's prefix: found by the 20-block lookback.
    expect(second.cache_read_input_tokens).toBe(total(first));
    expect(second.cache_creation_input_tokens).toBe(total(second) - total(first));
    expect(second.input_tokens).toBe(0);
  });

  it('caches nothing below the minimum length, and nothing without breakpoints', () => {
    const cache = createAnthropicPromptCache();
    const small = { model: 'claude-test', messages: [{ role: 'user', content: [text('short', true)] }] };
    expect(cache.serve(small)).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(cache.serve(small)).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    const plain = body(5, { cacheLast: false, extra: { system: system(false) } });
    cache.serve(plain);
    expect(cache.serve(plain)).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('scores a breakpoint on content that changes every request at 0%', () => {
    const cache = createAnthropicPromptCache({ minCacheableTokens: 100 });
    const stamped = (at: number) => ({
      model: 'claude-test',
      // A timestamp first: every prefix differs, so each request writes and none reads.
      system: [text(`now: ${at}`), text(long('system prompt'), true)],
      messages: [{ role: 'user', content: [text(long('question'))] }],
    });
    for (let at = 0; at < 3; at += 1) expect(cache.serve(stamped(at)).cache_read_input_tokens).toBe(0);
  });

  it('looks back 20 blocks from a breakpoint and no further', () => {
    // Only the last message has a breakpoint, so only the lookback can find the earlier write.
    const messagesOnly = (turns: number) => body(turns, { extra: { system: system(false) } });
    const cache = createAnthropicPromptCache({ minCacheableTokens: 100 });
    cache.serve(messagesOnly(3));
    expect(cache.serve(messagesOnly(3 + 20)).cache_read_input_tokens).toBeGreaterThan(0);
    const other = createAnthropicPromptCache({ minCacheableTokens: 100 });
    other.serve(messagesOnly(3));
    expect(other.serve(messagesOnly(3 + 21)).cache_read_input_tokens).toBe(0);
  });

  it('keeps the tools cached when the system prompt changes, and drops everything when a tool changes', () => {
    const cache = createAnthropicPromptCache({ minCacheableTokens: 100 });
    const withToolBreakpoint = (systemText: string, description: string) => ({
      model: 'claude-test',
      tools: [{ name: 'read', description, input_schema: { type: 'object' }, cache_control: BP }],
      system: [text(systemText, true)],
      messages: [{ role: 'user', content: [text('hi')] }],
    });
    cache.serve(withToolBreakpoint(long('a'), long('read')));
    const changedSystem = cache.serve(withToolBreakpoint(long('b'), long('read')));
    expect(changedSystem.cache_read_input_tokens).toBeGreaterThan(0);
    const changedTool = cache.serve(withToolBreakpoint(long('b'), long('read files')));
    expect(changedTool.cache_read_input_tokens).toBe(0);
  });

  it('forgets entries after their lifetime: 5 minutes by default, refreshed by each hit', () => {
    let now = 0;
    const cache = createAnthropicPromptCache({ minCacheableTokens: 100, now: () => now });
    cache.serve(body(3));
    now += 4 * 60 * 1000;
    expect(cache.serve(body(3)).cache_read_input_tokens).toBeGreaterThan(0);
    now += 4 * 60 * 1000;
    expect(cache.serve(body(3)).cache_read_input_tokens).toBeGreaterThan(0);
    now += 6 * 60 * 1000;
    expect(cache.serve(body(3)).cache_read_input_tokens).toBe(0);
  });

  it('invalidates the cached messages, not the system prompt, when tool_choice changes', () => {
    const cache = createAnthropicPromptCache({ minCacheableTokens: 100 });
    cache.serve(body(3));
    const changed = cache.serve(body(3, { extra: { tool_choice: { type: 'any' } } }));
    const first = createAnthropicPromptCache({ minCacheableTokens: 100 }).serve(body(3));
    expect(changed.cache_read_input_tokens).toBeGreaterThan(0);
    expect(changed.cache_read_input_tokens).toBeLessThan(total(first));
  });
});

describe('createAnthropicPromptCache token counts', () => {
  it('counts an image by its pixels, also inside a tool result', () => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
    png.writeUInt32BE(13, 8);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(1500, 16);
    png.writeUInt32BE(1000, 20);
    const image = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') },
    };
    const serve = (content: unknown[]) =>
      total(
        createAnthropicPromptCache().serve({ model: 'claude-test', messages: [{ role: 'user', content }] }),
      );
    // 1500 × 1000 / 750 = 2000 tokens.
    expect(serve([image])).toBe(2000);
    const inResult = serve([{ type: 'tool_result', tool_use_id: 't', content: [image] }]);
    expect(inResult).toBeGreaterThan(2000);
    expect(inResult).toBeLessThan(2020);
  });
});
