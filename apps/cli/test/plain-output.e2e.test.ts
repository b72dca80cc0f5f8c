import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ANSWER = '# Plan\n\n- read **a.ts**\n- run `npm test`\n\n```ts\nconst x = 1;\n```\n';

// stderr is coloured here: the id is read without the colour codes around it.
const conversationOf = (stderr: string) => /conversation (chat-[\w-]+)/.exec(stderr)?.[1] as string;

describe('the answer as the model wrote it (a pipe, --plain)', () => {
  it('prints exactly the Markdown the model sent when stdout is not a terminal, colour forced or not, --plain or not', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: Array.from({ length: 3 }, () => ({ text: ANSWER, chunkSize: 3 })),
    });
    const dataDir = tempDir('plain');
    // FORCE_COLOR colours the rest of the output; the answer itself stays byte for byte.
    const env = { ...mockEnv(dataDir, server.baseURL), NO_COLOR: '', FORCE_COLOR: '1' };
    const piped = await runCairn(['-p', 'plan it'], { env });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(ANSWER);
    const plain = await runCairn(['-p', 'plan it', '--plain'], { env });
    expect(plain.stdout).toBe(ANSWER);
    const fromEnv = await runCairn(['-p', 'plan it'], { env: { ...env, CAIRN_PLAIN: '1' } });
    expect(fromEnv.stdout).toBe(ANSWER);

    // Stored, and shown again to a pipe, it is the same text.
    const shown = await runCairn(['conversations', 'show', conversationOf(piped.stderr), '--plain'], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(ANSWER);
  });

  it('ends an answer without a line break with one, and adds nothing else', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: '**done**', chunkSize: 1 }],
    });
    const run = await runCairn(['-p', 'go', '--plain'], {
      env: mockEnv(tempDir('plain-end'), server.baseURL),
    });
    expect(run.stdout).toBe('**done**\n');
  });

  it('refuses a CAIRN_PLAIN it cannot read, naming the variable', async () => {
    server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'unused' }] });
    const env = { ...mockEnv(tempDir('plain-bad'), server.baseURL), CAIRN_PLAIN: 'sometimes' };
    const run = await runCairn(['-p', 'go'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'CAIRN_PLAIN must be one of 1, true, 0, false, got "sometimes" [INVALID_ARGUMENT]',
    );
  });
});
