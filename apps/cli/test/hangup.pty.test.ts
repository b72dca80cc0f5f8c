import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { expect, it } from 'vitest';
import { latestStoredLog, mockEnv, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

/** cairn ended by the hang-up itself (status 129), with no crash on the gone terminal (EIO). */
async function expectEndedByHangUp(outlive: string): Promise<void> {
  await expect.poll(() => existsSync(`${outlive}.status`), { timeout: 15_000 }).toBe(true);
  expect(readFileSync(`${outlive}.status`, 'utf8').trim()).toBe('129');
  expect(readFileSync(`${outlive}.stderr`, 'utf8')).not.toMatch(/unexpected error|EIO|Assertion/);
}

const STORY = `Once upon a time ${'there was a terminal that closed in the middle of a story. '.repeat(30)}The end.`;

it('closing the terminal mid-answer (SIGHUP) keeps the answer so far and the abort', async () => {
  const server = await startMockProviderServer({
    provider: 'openai',
    turns: [{ text: STORY, chunkSize: 4, chunkDelayMs: 40 }],
  });
  const dir = tempDir('pty-hangup');
  try {
    const session = openTerminal(dir);
    const outlive = join(dir, 'cairn');
    session.start(['chat', '--workspace', dir], mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' }), {
      outlive,
    });
    await session.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');
    session.type('tell me a long story');
    session.keys('Enter');
    await session.waitFor((screen) => screen.includes('a terminal that closed'), 'streamed text');
    session.hangUp();

    // The process stores the cut-off turn after the terminal is gone: wait for its last record.
    await expect
      .poll(async () => (await latestStoredLog(dir)).at(-1), { timeout: 20_000, interval: 200 })
      .toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_ABORTED' });
    const log = await latestStoredLog(dir);
    expect(log[0]).toMatchObject({ role: 'user', content: 'tell me a long story' });
    const answer = log.find((message) => message.role === 'assistant' && message.interrupted === true);
    const text = String(answer?.content);
    expect(STORY.startsWith(text)).toBe(true);
    expect(text.length).toBeGreaterThan('Once upon a time'.length);
    await expectEndedByHangUp(outlive);
  } finally {
    await server.close();
  }
}, 60_000);

it('closing the terminal at an idle prompt ends the chat by the hang-up, with no crash', async () => {
  const server = await startMockProviderServer({ provider: 'openai', turns: [] });
  const dir = tempDir('pty-hangup-idle');
  try {
    const session = openTerminal(dir);
    const outlive = join(dir, 'cairn');
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' });
    session.start(['chat', '--workspace', dir], env, { outlive });
    await session.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');
    session.hangUp();
    await expectEndedByHangUp(outlive);
  } finally {
    await server.close();
  }
}, 60_000);
