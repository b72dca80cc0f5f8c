import type { ConversationMessage } from '@cairn/core';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, latestStoredLog, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A long answer streamed slowly, so the reader can leave (or the signal arrive) in its middle.
const STORY = `${'Once upon a time there was a store that never lost a turn. '.repeat(40)}The end.`;
const slowStory = { text: STORY, chunkSize: 6, chunkDelayMs: 15 };

/** The turn was kept: the prompt, the text streamed so far (marked cut off), and the abort. */
function expectCutOffTurn(log: ConversationMessage[], prompt: string): void {
  expect(log[0]).toMatchObject({ role: 'user', content: prompt });
  const answer = log.findLast((message) => message.role === 'assistant' && message.partType !== 'error');
  expect(answer).toMatchObject({ interrupted: true });
  const text = answer?.content as string;
  expect(text.length).toBeGreaterThan(0);
  expect(STORY.startsWith(text)).toBe(true);
  expect(text.length).toBeLessThan(STORY.length);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_ABORTED' });
}

describe('a turn is stored whatever ends the process', () => {
  it('-p whose reader goes away (`| head -c 20`): the turn is kept and the exit is 141, not 0', async () => {
    server = await startMockProviderServer({ provider: 'openai', turns: [slowStory] });
    const dataDir = tempDir('epipe');
    const run = await runCairn(['-p', 'Tell me a story'], {
      env: mockEnv(dataDir, server.baseURL),
      onOutput: (output, child) => {
        if (output.stdout.length >= 20 && !child.stdout.destroyed) child.stdout.destroy();
      },
    });
    expect(run.code).toBe(141);
    expect(run.stderr).toContain('the turn was stopped by the output closing; what it said so far is stored');
    expectCutOffTurn(await latestStoredLog(dataDir), 'Tell me a story');
  });

  it('-p --yes whose reader goes away after the tool line: the tool call and the answer so far are kept', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran' } }] },
        { ...slowStory, delayMs: 300 },
      ],
    });
    const dataDir = tempDir('epipe-tool');
    const workspace = tempDir('epipe-tool-ws');
    const run = await runCairn(['-p', 'Run it, then tell a story', '--yes', '--workspace', workspace], {
      env: mockEnv(dataDir, server.baseURL),
      onOutput: (output, child) => {
        if (output.stdout.includes('echo ran') && !child.stdout.destroyed) child.stdout.destroy();
      },
    });
    expect(run.code).toBe(141);
    const log = await latestStoredLog(dataDir);
    expect(log.find((message) => message.role === 'tool')).toMatchObject({ toolName: 'run_command' });
    expectCutOffTurn(log, 'Run it, then tell a story');
  });

  for (const [signal, reason] of [
    ['SIGTERM', 'SIGTERM'],
    ['SIGHUP', 'a hang-up'],
  ] as const) {
    it(`${signal} mid-answer stores the answer so far and the abort, then ends by ${signal}`, async () => {
      server = await startMockProviderServer({ provider: 'openai', turns: [slowStory] });
      const dataDir = tempDir(signal.toLowerCase());
      let sent = false;
      const run = await runCairn(['-p', 'Tell me a story'], {
        env: mockEnv(dataDir, server.baseURL),
        onOutput: (output, child) => {
          if (output.stdout.length >= 20 && !sent) {
            sent = true;
            child.kill(signal);
          }
        },
      });
      // Ended by the signal itself (a shell reports 128 + its number: 143, 129), after storing.
      expect(run).toMatchObject({ code: null, signal });
      expect(run.stderr).toMatch(
        new RegExp(
          `^cairn: the turn was stopped by ${reason}; what it said so far is stored \\[LLM_ABORTED\\] — \`cairn chat --resume chat-\\S+\` goes on from there$`,
          'm',
        ),
      );
      expectCutOffTurn(await latestStoredLog(dataDir), 'Tell me a story');
    });
  }
});
