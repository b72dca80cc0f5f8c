import { type ScriptTurn, startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { chatRequests, cliEnv, mockEnv, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const STORY = `Once upon a time ${'there was a very long story that kept going '.repeat(12)}The end.`;

const openTerminal = usePtySessions();

describe('cairn chat in a real terminal', () => {
  it('streams, aborts a turn with Ctrl-C, asks before run_command, and resumes after a restart', async () => {
    const turns: ScriptTurn[] = [
      { text: STORY, chunkSize: 4, chunkDelayMs: 60 },
      {
        text: 'Running it.',
        toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved-output' } }],
      },
      { text: 'The command printed approved-output.' },
      { text: 'You first asked for a long story.' },
    ];
    const server = await startMockProviderServer({ provider: 'openai', turns });
    const dir = tempDir('pty');
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' });
    try {
      const first = openTerminal(dir);
      first.start(['chat', '--workspace', dir], env);
      await first.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');

      first.type('tell me a long story');
      first.keys('Enter');
      await first.waitFor((screen) => screen.includes('Once upon a time'), 'streamed text');
      first.keys('C-c');
      await first.waitFor((screen) => screen.includes('aborting this turn'), 'the abort');
      // The abort reached the HTTP request: the client closed it before the story was finished.
      await expect.poll(() => chatRequests(server)[0]?.closedAt).toBeDefined();
      expect(first.exited()).toBe(false);

      first.type('run the check');
      first.keys('Enter');
      await first.waitFor(
        (screen) => screen.includes('allow run_command: echo approved-output'),
        'the approval question',
      );
      // One key answers: no Enter.
      first.type('y');
      await first.waitFor(
        (screen) => screen.includes('The command printed approved-output.'),
        'the answer after the tool',
      );
      expect(first.screen()).toMatch(/✓.*echo approved-output/);

      first.type('/usage');
      first.keys('Enter');
      await first.waitFor((screen) => screen.includes('this session:'), '/usage');
      first.type('/exit');
      first.keys('Enter');
      const closing = await first.waitFor(
        (screen) => screen.includes('cairn chat --resume'),
        'the exit line',
      );
      const id = /cairn chat --resume (\S+)/.exec(closing)?.[1] as string;
      expect(id).toMatch(/^chat-/);
      first.stop();

      // A new process: /resume shows the stored history and the next turn carries it.
      const second = openTerminal(dir);
      second.start(['chat', '--workspace', dir], env);
      await second.waitFor((screen) => screen.includes('/help for commands'), 'the prompt after the restart');
      second.type(`/resume ${id}`);
      second.keys('Enter');
      const resumed = await second.waitFor((screen) => screen.includes(`resumed ${id}`), '/resume');
      expect(resumed).toContain('tell me a long story');
      // The story streamed until Ctrl-C was kept (interrupted), so the history shows what was seen.
      expect(resumed).toContain('Once upon a time');
      expect(resumed).toContain('The command printed approved-output.');
      second.type('what did I ask first?');
      second.keys('Enter');
      await second.waitFor(
        (screen) => screen.includes('You first asked for a long story.'),
        'the answer after resuming',
      );
      const request = JSON.stringify(chatRequests(server)[3]?.body);
      expect(request).toContain('tell me a long story');
      expect(request).toContain('Once upon a time');
      expect(request).toContain('approved-output');

      // Ctrl-C twice at the prompt exits.
      second.keys('C-c');
      second.keys('C-c');
      await second.waitFor(() => second.exited(), 'the exit on a double Ctrl-C');
    } finally {
      await server.close();
    }
  }, 90_000);
  it('cairn demo on a terminal asks before its command, and "always" lets it run', async () => {
    const dir = tempDir('pty-demo');
    const session = openTerminal(dir);
    session.start(['demo'], cliEnv(dir, { TERM: 'xterm-256color' }));
    await session.waitFor(
      (screen) => screen.includes('allow run_command: node --test test/greet.test.js'),
      'the approval question',
    );
    session.type('a');
    await session.waitFor((screen) => screen.includes('Here is what happened'), 'the end of the tour');
    expect(session.screen()).toMatch(/✗ Command `node --test test\/greet\.test\.js` failed/);
    session.type('/exit');
    session.keys('Enter');
    await session.waitFor(() => session.exited(), 'the exit');
  }, 60_000);
});
