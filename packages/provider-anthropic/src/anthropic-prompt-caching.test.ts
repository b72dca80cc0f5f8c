import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergePromptCaching, parsePromptCaching, placeCacheBreakpoints } from './anthropic-prompt-caching.js';
import type { AnthropicTurn } from './convert-to-anthropic-messages.js';

const text = (value: string): ContentBlockParam => ({ type: 'text', text: value });
const turn = (role: AnthropicTurn['role'], ...values: string[]): AnthropicTurn => ({
  role,
  content: values.map(text),
});
const prompt = {
  tools: [
    { name: 'a', input_schema: { type: 'object' as const } },
    { name: 'b', input_schema: { type: 'object' as const } },
  ],
  system: [
    { type: 'text' as const, text: 'one' },
    { type: 'text' as const, text: 'two' },
  ],
  messages: [
    turn('user', 'u1'),
    turn('assistant', 'a1'),
    turn('user', 'u2', 'u2b'),
    turn('assistant', 'prefill'),
  ],
};

// Where the breakpoints went: tool names, system texts and message texts carrying cache_control.
function marked(result: typeof prompt) {
  const has = (block: object) => 'cache_control' in block;
  return [
    ...result.tools.filter(has).map((tool) => `tool:${tool.name}`),
    ...result.system.filter(has).map((block) => `system:${block.text}`),
    ...result.messages.flatMap((entry) =>
      entry.content.filter(has).map((block) => `message:${(block as { text: string }).text}`),
    ),
  ];
}

describe('placeCacheBreakpoints', () => {
  it('marks the last tool, the last system block and the last two user turns by default', () => {
    const result = placeCacheBreakpoints(prompt, {});
    expect(marked(result)).toEqual(['tool:b', 'system:two', 'message:u1', 'message:u2b']);
    expect(result.tools[1]).toEqual({
      name: 'b',
      input_schema: { type: 'object' },
      cache_control: { type: 'ephemeral' },
    });
    // The prompt given is left as it was.
    expect(marked(prompt)).toEqual([]);
  });

  it('follows the settings, adds the ttl, and never places more than four', () => {
    expect(marked(placeCacheBreakpoints(prompt, { tools: false, system: false, messages: 1 }))).toEqual([
      'message:u2b',
    ]);
    expect(marked(placeCacheBreakpoints(prompt, { messages: 4 }))).toEqual([
      'tool:b',
      'system:two',
      'message:u1',
      'message:u2b',
    ]);
    const { tools: _tools, ...noTools } = prompt;
    expect(marked(placeCacheBreakpoints({ ...noTools, tools: [] }, { messages: 4 }))).toEqual([
      'system:two',
      'message:u1',
      'message:u2b',
    ]);
    const oneHour = placeCacheBreakpoints(prompt, { ttl: '1h' });
    expect(oneHour.system[1]).toMatchObject({ cache_control: { type: 'ephemeral', ttl: '1h' } });
    expect(placeCacheBreakpoints(prompt, false)).toBe(prompt);
  });
});

describe('prompt caching options', () => {
  it('lets a request turn caching off or adjust the adapter setting', () => {
    expect(mergePromptCaching({ ttl: '1h' }, undefined)).toEqual({ ttl: '1h' });
    expect(mergePromptCaching({ ttl: '1h' }, false)).toBe(false);
    expect(mergePromptCaching({ ttl: '1h' }, { messages: 1 })).toEqual({ ttl: '1h', messages: 1 });
    expect(mergePromptCaching(false, { messages: 1 })).toEqual({ messages: 1 });
  });

  it('refuses values the API or the placement cannot use', () => {
    expect(parsePromptCaching(undefined, 'promptCaching')).toBeUndefined();
    expect(parsePromptCaching(false, 'promptCaching')).toBe(false);
    expect(() => parsePromptCaching(true, 'promptCaching')).toThrow(/false or an object/);
    expect(() => parsePromptCaching({ messages: 5 }, 'promptCaching')).toThrow(/0 to 4/);
    expect(() => parsePromptCaching({ ttl: '2h' }, 'promptCaching')).toThrow(/"5m" or "1h"/);
    expect(() => parsePromptCaching({ system: 'yes' }, 'promptCaching')).toThrow(/system must be a boolean/);
    expect(() => parsePromptCaching({ breakpoints: 2 }, 'promptCaching')).toThrow(
      /unknown keys: breakpoints/,
    );
  });
});

describe('placeCacheBreakpoints properties', () => {
  const turnsArb = fc.array(
    fc.record({
      role: fc.constantFrom<AnthropicTurn['role']>('user', 'assistant'),
      content: fc.array(fc.string({ minLength: 1 }).map(text), { minLength: 0, maxLength: 3 }),
    }),
    { maxLength: 8 },
  );
  const namesArb = fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 3 });
  const cachingArb = fc.record(
    {
      tools: fc.boolean(),
      system: fc.boolean(),
      messages: fc.integer({ min: 0, max: 4 }),
      ttl: fc.constantFrom<'5m' | '1h'>('5m', '1h'),
    },
    { requiredKeys: [] },
  );

  it('places at most four, each on the last tool, the last system block or the end of a user turn', () => {
    fc.assert(
      fc.property(turnsArb, namesArb, namesArb, cachingArb, (messages, toolNames, systemTexts, caching) => {
        const input = {
          tools: toolNames.map((name) => ({ name, input_schema: { type: 'object' as const } })),
          system: systemTexts.map((value) => ({ type: 'text' as const, text: value })),
          messages,
        };
        const result = placeCacheBreakpoints(input, caching);
        const at = (blocks: readonly object[]) =>
          blocks.flatMap((block, index) => ('cache_control' in block ? [index] : []));
        const toolMarks = at(result.tools);
        const systemMarks = at(result.system);
        const messageMarks = result.messages.flatMap((turn, index) =>
          at(turn.content).map((block) => ({ turn: index, block })),
        );
        expect(toolMarks.length + systemMarks.length + messageMarks.length).toBeLessThanOrEqual(4);
        expect(toolMarks).toEqual(
          caching.tools !== false && input.tools.length > 0 ? [input.tools.length - 1] : [],
        );
        expect(systemMarks).toEqual(
          caching.system !== false && input.system.length > 0 ? [input.system.length - 1] : [],
        );
        for (const mark of messageMarks) {
          const turn = result.messages[mark.turn];
          expect(turn?.role).toBe('user');
          expect(mark.block).toBe((turn?.content.length ?? 0) - 1);
        }
        // The newest user turns are marked first, as many as asked and the budget allows.
        const userTurns = messages.flatMap((turn, index) =>
          turn.role === 'user' && turn.content.length > 0 ? [index] : [],
        );
        const budget = 4 - toolMarks.length - systemMarks.length;
        const expected = userTurns.slice(
          userTurns.length - Math.min(budget, caching.messages ?? 2, userTurns.length),
        );
        expect(messageMarks.map((mark) => mark.turn)).toEqual(
          Math.min(budget, caching.messages ?? 2) === 0 ? [] : expected,
        );
        expect(JSON.stringify(result).replaceAll(/,"cache_control":\{[^}]*\}/g, '')).toBe(
          JSON.stringify(input),
        );
      }),
      { numRuns: 200 },
    );
  });
});
