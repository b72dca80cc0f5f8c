import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

describe('cairn chat reading lines from a pipe: messages and slash commands', () => {
  it('runs turns, /compress (tokens before and after), /usage, /conversations, /model, /new and /resume', async () => {
    const dataDir = tempDir('slash');
    const env = cliEnv(dataDir);
    const lines = [
      'Show me around.',
      'What about the second bug?',
      'And the README?',
      'Thanks!',
      '/compress',
      'One more question.',
      '/usage',
      '/model',
      '/conversations',
      '/new',
      '/frobnicate',
      '/help',
      'Hello again.',
    ];
    const run = await runCairn(['chat'], { env, input: `${lines.join('\n')}\n` });
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    // The tour ran (tools included), later turns answered, then the summary replaced the old turns.
    expect(out).toMatch(/✓ Updated src\/greet\.js/);
    expect(out).toMatch(/You asked “What about the second bug\?”/);
    const compressed = /context: ([\d,]+) → ([\d,]+) tokens \(([^)]*)\)/.exec(out);
    expect(compressed, out).not.toBeNull();
    const [before, after] = [compressed?.[1], compressed?.[2]].map((n) => Number(n?.replaceAll(',', '')));
    expect(after).toBeLessThan(before as number);
    expect(compressed?.[3]).toContain('summarize');
    expect(out).toMatch(/this session: 5 turns, \d+ model calls/);
    expect(out).toContain('model: offline demo');
    const id = /conversation saved: cairn chat --resume (\S+)/.exec(out)?.[1];
    const first = /(chat-\S+) {2}.*messages \(current\)/.exec(out)?.[1] as string;
    expect(first).toMatch(/^chat-/);
    expect(id).toMatch(/^chat-/);
    expect(id).not.toBe(first);
    expect(out).toContain('unknown command /frobnicate');
    expect(out).toContain('/compress');

    // The summary is stored: the conversation shows it, and a new process resumes after it.
    const shown = await runCairn(['conversations', 'show', first], { env });
    expect(shown.stdout).toContain('earlier conversation summarised');
    expect((await runCairn(['conversations', 'list'], { env })).stdout).toContain(id);
  }, 60_000);

  it('`cairn chat hello world` sends the words as the first message, then reads the next lines', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'Hello to you.' }, { text: 'Second answer.' }],
    });
    try {
      const run = await runCairn(['chat', 'hello', 'world'], {
        env: mockEnv(tempDir('chat-words'), server.baseURL),
        input: 'and a second line\n',
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Hello to you.');
      expect(run.stdout).toContain('Second answer.');
      const [first, second] = chatRequests(server).map((request) => JSON.stringify(request.body));
      expect(first).toContain('"content":"hello world"');
      expect(second).toContain('and a second line');
    } finally {
      await server.close();
    }
  });
});
