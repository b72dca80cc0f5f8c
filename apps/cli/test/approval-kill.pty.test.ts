import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationMessage } from '@cairn/core';
import { startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { chatRequests, mockEnv, storedLog, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

const QUESTION = 'allow run_command: echo ran >> side.txt';
const records = (log: ConversationMessage[], partType: string) =>
  log.filter((message) => message.partType === partType);

describe('an approval question that outlives the CLI', () => {
  it('killed at the question, asks the same request again on --resume; "y" runs the command exactly once', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        {
          text: 'Appending.',
          toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran >> side.txt' } }],
        },
        { text: 'Appended once.' },
      ],
    });
    const dir = tempDir('pty-approval-kill');
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' });
    const side = join(dir, 'side.txt');
    try {
      const first = openTerminal(dir);
      first.start(['chat', '--workspace', dir], env);
      const ready = await first.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');
      const id = /conversation (\S+) ·/.exec(ready)?.[1] as string;
      first.type('append a line');
      first.keys('Enter');
      await first.waitFor((screen) => screen.includes(QUESTION), 'the question');
      first.signal('SIGKILL');
      await first.waitFor(() => first.exited(), 'the end of the killed process');

      // The request was stored before the question: it waits, undecided, and nothing ran.
      const killed = await storedLog(dir, id);
      expect(records(killed, 'approval_request')).toHaveLength(1);
      expect(records(killed, 'approval_decision')).toEqual([]);
      expect(existsSync(side)).toBe(false);

      const second = openTerminal(dir);
      second.start(['chat', '--workspace', dir, '--resume', id], env);
      const asked = await second.waitFor((screen) => screen.includes(QUESTION), 'the same question again');
      // The history shows the call as waiting for its approval, not as unfinished.
      expect(asked).toMatch(/^\? run_command: echo ran >> side\.txt — awaiting approval/m);
      expect(asked).not.toContain('did not finish');
      second.type('y');
      const resumed = await second.waitFor(
        (screen) => screen.includes('Appended once.'),
        'the answer after the resumed call',
      );
      expect(resumed).toMatch(/^✓ Ran `echo ran >> side\.txt`/m);
      second.type('/exit');
      second.keys('Enter');
      await second.waitFor(() => second.exited(), 'the exit');

      expect(readFileSync(side, 'utf8')).toBe('ran\n');
      const log = await storedLog(dir, id);
      const decisions = records(log, 'approval_decision');
      expect(decisions).toHaveLength(1);
      expect(decisions[0]?.approval).toMatchObject({ outcome: 'approve', decidedBy: 'local' });
      expect(records(log, 'tool_intent')).toHaveLength(1);
      // The model was asked once before the kill and once after the call ran.
      expect(chatRequests(server)).toHaveLength(2);
      expect(JSON.stringify(chatRequests(server)[1]?.body)).not.toMatch(/did not approve|not run/);
    } finally {
      await server.close();
    }
  }, 90_000);

  it('ended by SIGTERM at the question, runs nothing and does not ask again: the request is superseded by the cancel', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran >> side.txt' } }] }],
    });
    const dir = tempDir('pty-approval-term');
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' });
    try {
      const first = openTerminal(dir);
      first.start(['chat', '--workspace', dir], env);
      const ready = await first.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');
      const id = /conversation (\S+) ·/.exec(ready)?.[1] as string;
      first.type('append a line');
      first.keys('Enter');
      await first.waitFor((screen) => screen.includes(QUESTION), 'the question');
      first.signal('SIGTERM');
      await first.waitForExit('conversation saved', 'the exit after SIGTERM');
      // Nobody answered: no person's decision is made up ("deny by local"), but the request does not
      // stay pending either — the cancel supersedes it (by the system); nothing ran.
      const log = await storedLog(dir, id);
      expect(records(log, 'approval_request')).toHaveLength(1);
      expect(records(log, 'approval_decision').map((record) => record.approval)).toMatchObject([
        { outcome: 'superseded', decidedBy: 'system', reason: 'the turn was cancelled' },
      ]);
      expect(existsSync(join(dir, 'side.txt'))).toBe(false);

      // Coming back asks nothing about that call: it can no longer run.
      const second = openTerminal(dir);
      second.start(['chat', '--workspace', dir, '--resume', id], env);
      await second.waitFor((screen) => screen.includes('/help for commands'), 'the prompt after the restart');
      second.type('/usage');
      second.keys('Enter');
      const shown = await second.waitFor((screen) => screen.includes('this session:'), '/usage');
      expect(shown).not.toContain(QUESTION);
      expect(shown).toContain('run_command did not finish');
    } finally {
      await server.close();
    }
  }, 60_000);
});
