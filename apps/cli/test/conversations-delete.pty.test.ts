import { describe, expect, it } from 'vitest';
import { cliEnv, runCairn, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

describe('cairn conversations delete at a terminal', () => {
  it('asks with one key: n keeps the conversation, y deletes it', async () => {
    const dir = tempDir('pty-delete');
    const env = cliEnv(dir);
    expect((await runCairn(['demo'], { env })).code).toBe(0);
    const listed = async () => (await runCairn(['conversations', 'list'], { env })).stdout;
    const [, id, count] = /^(chat-\S+) .*?(\d+) messages/m.exec(await listed()) ?? [];

    // Each answer in a terminal of its own: the question, a key (no Enter), what it did.
    const answer = async (key: string) => {
      const session = openTerminal(dir);
      session.start(['conversations', 'delete', id as string], { ...env, TERM: 'xterm-256color' });
      const question = await session.waitFor((screen) => screen.includes('[y/N]'), 'the question');
      expect(question).toMatch(
        new RegExp(
          `delete conversation ${id} \\(${count} messages, updated \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\)\\? \\[y/N\\]`,
        ),
      );
      session.type(key);
      return session.waitForExit(/^(kept|deleted) /m, 'the exit after the answer, and what it did');
    };

    expect(await answer('n')).toContain(`[y/N] n\nkept ${id}`);
    expect(await listed()).toContain(id);

    expect(await answer('y')).toContain(`[y/N] y\ndeleted ${id}`);
    expect(await listed()).not.toContain(id);
  }, 60_000);
});
