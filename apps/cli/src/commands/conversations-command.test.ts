import { PassThrough } from 'node:stream';
import { CairnError } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../io.js';
import { captureStream, plainColors } from '../render/test-support.js';
import { deleteConversation } from './conversations-command.js';

const ID = 'chat-20300102-1000-abc123';

async function storeWithConversation() {
  const store = createMemoryConversationStore();
  await store.append(ID, [
    { id: 'm1', role: 'user', createdAt: '2030-01-02T10:00:00.000Z', content: 'Hi' },
    { id: 'm2', role: 'assistant', createdAt: '2030-01-02T10:05:00.000Z', content: 'Hello!' },
  ]);
  return store;
}

/** A CliIO whose stdin and stdout are a terminal (or not); `keys` are typed once the question is asked. */
function terminalIO(options: { terminal: boolean; keys?: string }) {
  const stdin = Object.assign(new PassThrough(), { isTTY: options.terminal, rawModes: [] as boolean[] });
  const setRawMode = (mode: boolean) => stdin.rawModes.push(mode);
  const stdout = captureStream({ isTTY: options.terminal });
  const io: CliIO = {
    stdout: {
      ...stdout,
      write(chunk: string) {
        stdout.write(chunk);
        // The key comes once the question is on the screen.
        if (chunk.includes('[y/N]') && options.keys !== undefined)
          setImmediate(() => stdin.write(options.keys));
        return true;
      },
    },
    stderr: captureStream(),
    stdin: Object.assign(stdin, { setRawMode }),
    env: {},
    cwd: '/',
  };
  return { io, stdout, stdin };
}

describe('cairn conversations delete', () => {
  it('asks at a terminal, with one key: y deletes', async () => {
    const store = await storeWithConversation();
    const { io, stdout, stdin } = terminalIO({ terminal: true, keys: 'y' });

    const code = await deleteConversation({ io, store, colors: plainColors }, ID, { yes: false });

    expect(code).toBe(0);
    expect(stdout.text).toBe(
      `delete conversation ${ID} (2 messages, updated 2030-01-02 10:05)? [y/N] y\ndeleted ${ID}\n`,
    );
    // The terminal leaves raw mode once the rest of the key's chunk is dropped (the next tick).
    await new Promise(setImmediate);
    expect(stdin.rawModes).toEqual([true, false]);
    expect(await store.load(ID)).toEqual([]);
  });

  it.each([
    ['n', 1, 'n'],
    ['\r', 1, 'n'],
    ['x', 1, 'n'],
    ['\u0003', 130, '^C'],
  ])('keeps the conversation for any other key (%j): exit code %i', async (key, exitCode, echo) => {
    const store = await storeWithConversation();
    const { io, stdout } = terminalIO({ terminal: true, keys: key });

    const code = await deleteConversation({ io, store, colors: plainColors }, ID, { yes: false });

    expect(code).toBe(exitCode);
    expect(stdout.text).toMatch(new RegExp(`\\[y/N\\] ${echo.replace('^', '\\^')}\\nkept ${ID}\\n$`));
    expect(await store.load(ID)).toHaveLength(2);
  });

  it('keeps it when the input ends before a key', async () => {
    const store = await storeWithConversation();
    const { io, stdin } = terminalIO({ terminal: true });
    setImmediate(() => stdin.end());

    expect(await deleteConversation({ io, store, colors: plainColors }, ID, { yes: false })).toBe(1);
    expect(await store.load(ID)).toHaveLength(2);
  });

  it('refuses without a terminal unless --yes, and deletes with it without asking', async () => {
    const store = await storeWithConversation();
    const piped = terminalIO({ terminal: false });

    const refusal = deleteConversation({ io: piped.io, store, colors: plainColors }, ID, { yes: false });

    await expect(refusal).rejects.toThrow(CairnError);
    await expect(refusal).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fix: 'pass --yes to delete it without asking' },
    });
    expect(await store.load(ID)).toHaveLength(2);
    expect(await deleteConversation({ io: piped.io, store, colors: plainColors }, ID, { yes: true })).toBe(0);
    expect(piped.stdout.text).toBe(`deleted ${ID}\n`);
    expect(await store.load(ID)).toEqual([]);
  });

  it('says an unknown id is not there before asking anything', async () => {
    const { io, stdout } = terminalIO({ terminal: true, keys: 'y' });

    await expect(
      deleteConversation({ io, store: createMemoryConversationStore(), colors: plainColors }, 'chat-nope', {
        yes: false,
      }),
    ).rejects.toMatchObject({ code: 'STORE_NOT_FOUND' });
    expect(stdout.text).toBe('');
  });
});
