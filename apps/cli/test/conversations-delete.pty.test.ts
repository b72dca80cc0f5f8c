import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ensureCliBuilt, runCairn, tempDir } from './cli-process.js';
import { TmuxSession } from './tmux-session.js';

beforeAll(() => {
  // Not skipped when missing: the question is only asked at a terminal (.ci/run installs tmux).
  execFileSync('tmux', ['-V']);
  ensureCliBuilt();
}, 120_000);

const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.stop();
});

describe('cairn conversations delete at a terminal (tmux)', () => {
  it('asks with one key: n keeps the conversation, y deletes it', async () => {
    const dir = tempDir('pty-delete');
    const env = cliEnv(dir);
    expect((await runCairn(['demo'], { env })).code).toBe(0);
    const listed = async () => (await runCairn(['conversations', 'list'], { env })).stdout;
    const [, id, count] = /^(chat-\S+) .*?(\d+) messages/m.exec(await listed()) ?? [];

    // Each answer in a terminal of its own: the question, a key (no Enter), what it did.
    const answer = async (key: string) => {
      const session = new TmuxSession(dir);
      sessions.push(session);
      session.start(['conversations', 'delete', id as string], { ...env, TERM: 'xterm-256color' });
      const question = await session.waitFor((screen) => screen.includes('[y/N]'), 'the question');
      expect(question).toMatch(
        new RegExp(
          `delete conversation ${id} \\(${count} messages, updated \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\)\\? \\[y/N\\]`,
        ),
      );
      session.type(key);
      return session.waitFor(() => session.exited(), 'the exit after the answer');
    };

    expect(await answer('n')).toContain(`[y/N] n\nkept ${id}`);
    expect(await listed()).toContain(id);

    expect(await answer('y')).toContain(`[y/N] y\ndeleted ${id}`);
    expect(await listed()).not.toContain(id);
  }, 60_000);
});
