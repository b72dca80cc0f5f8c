import { type ScriptTurn, simulatedDelay, startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { chatRequests, mockEnv, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

const command = (text: string): ScriptTurn => ({
  toolCalls: [{ name: 'run_command', arguments: { command: `echo ${text}` } }],
});
const occurrences = (screen: string, text: string) => screen.split(text).length - 1;
const HINT = 'press y (yes), n (no) or a (always, this session)';
// Long enough that a duration counting the wait would not fit in the window the command ran in.
const APPROVAL_PAUSE_MS = 2_500;

describe('the run_command question in a real terminal', () => {
  it('takes one key, re-asks on others, times the command without the wait, and says a refusal once', async () => {
    const turns: ScriptTurn[] = [
      command('approved-output'),
      { text: 'The command printed approved-output.' },
      command('refused-output'),
      { text: 'Not run, as you wish.' },
      command('escaped-output'),
      { text: 'Escaped, not run.' },
      command('interrupted-output'),
    ];
    const server = await startMockProviderServer({ provider: 'openai', turns });
    const dir = tempDir('pty-approval');
    const session = openTerminal(dir);
    try {
      session.start(['chat', '--workspace', dir], mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' }));
      await session.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');

      session.type('run the check');
      session.keys('Enter');
      await session.waitFor(
        (screen) => screen.includes('allow run_command: echo approved-output'),
        'the question',
      );
      // Neither another key nor Enter alone answers: each gets the hint and the question again.
      session.type('x');
      await session.waitFor((screen) => occurrences(screen, HINT) === 1, 'the hint after x');
      session.keys('Enter');
      await session.waitFor((screen) => occurrences(screen, HINT) === 2, 'the hint after Enter');
      // The user takes a while to decide: the behaviour under test.
      await simulatedDelay(APPROVAL_PAUSE_MS);
      const answeredAt = performance.now();
      session.type('Y');
      const approved = await session.waitFor(
        (screen) => screen.includes('The command printed approved-output.'),
        'the answer after the tool',
      );
      // The command ran after the answer and before its result showed: however slow the machine,
      // its own duration fits in that window, and one that counted the wait before it would not.
      const windowMs = performance.now() - answeredAt;
      expect(approved).toMatch(
        /allow run_command: echo approved-output \[y\]es \/ \[n\]o \/ \[a\]lways yes *$/m,
      );
      // The duration is the command's own, not the seconds spent deciding.
      const line = /✓ Ran `echo approved-output`(?: \((\d+)ms\)| \((\d+\.\d)s\))? *$/m.exec(approved);
      expect(line, approved).not.toBeNull();
      // Milliseconds, or seconds with one decimal (so up to 50 ms rounded up) once a loaded machine
      // takes that long to run echo.
      const ranMs = line?.[2] === undefined ? Number(line?.[1] ?? 0) : Number(line[2]) * 1000;
      expect(ranMs).toBeLessThanOrEqual(windowMs + 50);

      session.type('try another');
      session.keys('Enter');
      await session.waitFor(
        (screen) => screen.includes('allow run_command: echo refused-output'),
        'the 2nd question',
      );
      session.type('n');
      const refused = await session.waitFor(
        (screen) => screen.includes('Not run, as you wish.'),
        'the answer after the refusal',
      );
      expect(refused).toMatch(
        /allow run_command: echo refused-output \[y\]es \/ \[n\]o \/ \[a\]lways no *$/m,
      );
      // The refusal is said once: in the tool's line, not again beneath it or in a line of its own.
      expect(refused).toMatch(
        /^✗ Command `echo refused-output` failed: The user did not approve running run_command\. *$/m,
      );
      expect(occurrences(refused, 'did not approve')).toBe(1);
      expect(refused).not.toMatch(/^ *refused *$/m);
      expect(refused).not.toContain('stopped without an exit code');

      session.type('and again');
      session.keys('Enter');
      await session.waitFor(
        (screen) => screen.includes('allow run_command: echo escaped-output'),
        'the 3rd question',
      );
      session.keys('Escape');
      const escaped = await session.waitFor(
        (screen) => screen.includes('Escaped, not run.'),
        'the answer after Esc',
      );
      expect(escaped).toMatch(
        /allow run_command: echo escaped-output \[y\]es \/ \[n\]o \/ \[a\]lways no *$/m,
      );

      // Ctrl-C at the question answers no and aborts the turn, as Ctrl-C does anywhere in a turn.
      session.type('one more');
      session.keys('Enter');
      await session.waitFor(
        (screen) => screen.includes('allow run_command: echo interrupted-output'),
        'the 4th question',
      );
      session.keys('C-c');
      await session.waitFor((screen) => screen.includes('aborting this turn'), 'the abort');
      expect(session.exited()).toBe(false);

      // No key given to a question reached the prompt: this line is a command, not "xY/usage".
      session.type('/usage');
      session.keys('Enter');
      await session.waitFor((screen) => screen.includes('this session:'), '/usage');
      expect(chatRequests(server)).toHaveLength(7);
      expect(JSON.stringify(chatRequests(server).map((request) => request.body))).not.toMatch(
        /x\/usage|Y\/usage/,
      );
      session.type('/exit');
      session.keys('Enter');
      await session.waitFor(() => session.exited(), 'the exit');
      const screen = session.screen();
      for (const output of ['refused-output', 'escaped-output', 'interrupted-output']) {
        expect(screen, output).not.toMatch(new RegExp(`✓ Ran \`echo ${output}\``));
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
