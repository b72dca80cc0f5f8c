// pnpm --filter @cairn/provider-anthropic bench
// Prompt caching: a 20-turn tool conversation (a system prompt, four tools, a file read on every
// turn but the last) replayed through the real adapter against @cairn/testing's Messages API mock,
// whose prompt cache follows Anthropic's documented rules (the exact prefix up to a breakpoint,
// 1024 tokens at least, a 20-block lookback, 5-minute entries). Twice in the same run: with the
// adapter's default breakpoints, and with caching off. Prints the share of each turn's input tokens
// served from the cache, a table and one JSON line; the goal is at least 80% from turn 3 on (so at
// most 20% not served from the cache), against 0% without breakpoints.
import { report, seededRandom } from '@cairn/bench';
import { createAnthropicMockProtocol, startMockProviderServer } from '@cairn/testing';
import { createAnthropicAdapter } from '../dist/index.js';

const TURNS = 20;
const FROM_TURN = 3;
// At least 80% served from the cache: at most 20% not.
const NOT_CACHED_GOAL = 0.2;

const random = seededRandom(20_251_127);
const WORDS = [
  'const',
  'return',
  'await',
  'export',
  'function',
  'message',
  'content',
  'stream',
  'token',
  'cache',
];
const prose = (words) =>
  Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');

const system = `You are a coding agent working in a TypeScript monorepo. ${prose(900)}`;
const tool = (name, description, properties) => ({
  name,
  description: `${description} ${prose(60)}`,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
});
const tools = [
  tool('read_file', 'Reads a file of the repository.', { path: { type: 'string' } }),
  tool('write_file', 'Writes a file of the repository.', {
    path: { type: 'string' },
    content: { type: 'string' },
  }),
  tool('run_command', 'Runs a shell command in the repository.', { command: { type: 'string' } }),
  tool('search', 'Searches the repository for a text.', { query: { type: 'string' } }),
];
// The same file contents for both runs.
const files = Array.from(
  { length: TURNS },
  (_, index) => `// src/file-${index}.ts\n${prose(250 + index * 10)}`,
);

const scriptedTurn = (_request, index) =>
  index < TURNS - 1
    ? {
        text: `Reading file ${index}.`,
        toolCalls: [{ name: 'read_file', arguments: { path: `src/file-${index}.ts` } }],
      }
    : { text: 'All files read; the refactor is ready.' };

async function replay(promptCaching) {
  const server = await startMockProviderServer({
    provider: createAnthropicMockProtocol({ promptCache: true }),
    turns: scriptedTurn,
  });
  try {
    const model = createAnthropicAdapter({
      model: 'claude-sonnet-5-5',
      baseURL: server.baseURL,
      apiKey: 'none',
      ...(promptCaching === undefined ? {} : { promptCaching }),
    });
    const messages = [
      { role: 'system', content: system },
      { role: 'user', content: 'Read every file under src/ one by one, then plan the refactor.' },
    ];
    const turns = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const { message, usage } = await model.generate({ messages, tools });
      turns.push({
        turn,
        input: usage.inputTokens,
        read: usage.cacheReadTokens ?? 0,
        written: usage.cacheWriteTokens ?? 0,
      });
      messages.push(message);
      for (const call of message.tool_calls ?? []) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: files[turn - 1] });
      }
    }
    return turns;
  } finally {
    await server.close();
  }
}

const cached = await replay(undefined);
const uncached = await replay(false);

const share = (turns) => {
  const from = turns.filter((turn) => turn.turn >= FROM_TURN);
  return from.reduce((sum, turn) => sum + turn.read, 0) / from.reduce((sum, turn) => sum + turn.input, 0);
};
const percent = (value) => `${(value * 100).toFixed(1)}%`;
console.log('turn  input tokens  cache read  cache written  served from cache  (caching off)');
for (const [index, turn] of cached.entries()) {
  const off = uncached[index];
  console.log(
    `${String(turn.turn).padStart(4)}  ${String(turn.input).padStart(12)}  ${String(turn.read).padStart(10)}  ${String(turn.written).padStart(13)}  ${percent(turn.read / turn.input).padStart(17)}  ${percent(off.read / off.input).padStart(13)}`,
  );
}

const withBreakpoints = share(cached);
const withoutBreakpoints = share(uncached);
const ok = report(
  '@cairn/provider-anthropic: prompt caching over a 20-turn tool conversation (default breakpoints vs caching off, Anthropic cache rules in the mock)',
  [
    {
      name: `input not served from cache, turns ${FROM_TURN}-${TURNS}`,
      value: 1 - withBreakpoints,
      goal: NOT_CACHED_GOAL,
      detail: `${percent(withBreakpoints)} of input tokens read from the cache with the default breakpoints, ${percent(withoutBreakpoints)} with caching off`,
      peer: { name: 'caching off', value: 1 - withoutBreakpoints },
    },
  ],
  {
    turns: TURNS,
    fromTurn: FROM_TURN,
    servedFromCache: withBreakpoints,
    servedFromCacheWithoutBreakpoints: withoutBreakpoints,
    perTurn: cached.map((turn, index) => ({
      ...turn,
      share: turn.read / turn.input,
      shareWithoutBreakpoints: uncached[index].read / uncached[index].input,
    })),
  },
);
process.exitCode = ok && withoutBreakpoints === 0 ? 0 : 1;
