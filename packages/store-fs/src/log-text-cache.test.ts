import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolTurn, userMessage } from '@cairn/storage/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsConversationStore } from './fs-conversation-store.js';
import { LogTextCache } from './log-text-cache.js';

describe('LogTextCache', () => {
  const lease = {};

  it('gives a text only for the lease and length it was kept for', () => {
    const cache = new LogTextCache(1_000);
    cache.set('c1', lease, 3, 'abc');
    expect(cache.get('c1', lease, 3)).toBe('abc');
    expect(cache.get('c1', {}, 3)).toBeUndefined();
    expect(cache.get('c1', lease, 4)).toBeUndefined();
    cache.extend('c1', lease, 3, 5, 'de');
    expect(cache.get('c1', lease, 5)).toBe('abcde');
  });

  it('drops a text an append does not continue (another length, another lease)', () => {
    const cache = new LogTextCache(1_000);
    cache.set('c1', lease, 3, 'abc');
    cache.extend('c1', lease, 4, 6, 'ef');
    expect(cache.get('c1', lease, 3)).toBeUndefined();
    cache.set('c2', lease, 3, 'abc');
    cache.extend('c2', {}, 3, 5, 'de');
    expect(cache.get('c2', lease, 3)).toBeUndefined();
  });

  it('keeps at most maxChars, the least recently used going first', () => {
    const cache = new LogTextCache(100);
    cache.set('a', lease, 20, 'a'.repeat(20));
    cache.set('b', lease, 20, 'b'.repeat(20));
    cache.set('c', lease, 20, 'c'.repeat(20));
    cache.set('d', lease, 20, 'd'.repeat(20));
    expect(cache.get('a', lease, 20)).toBeDefined();
    cache.set('e', lease, 25, 'e'.repeat(25));
    // b was the least recently used: 20 × 4 + 25 > 100.
    expect(cache.get('b', lease, 20)).toBeUndefined();
    expect(['a', 'c', 'd'].every((id) => cache.get(id, lease, 20) !== undefined)).toBe(true);
    // A text over a quarter of the room is not kept.
    cache.set('f', lease, 26, 'f'.repeat(26));
    expect(cache.get('f', lease, 26)).toBeUndefined();
  });
});

describe('loads of a conversation this store holds the lease on', () => {
  let rootDir: string;
  beforeEach(async () => {
    rootDir = await mkdtemp(join(tmpdir(), 'cairn-log-text-'));
  });
  afterEach(async () => {
    await rm(rootDir, { recursive: true, force: true });
  });
  const open = () => createFsConversationStore({ rootDir });
  const logFile = (id: string) => join(rootDir, 'projects', 'default', 'conversations', id, 'messages.jsonl');

  it('read no file once the text is known: a log changed behind the lock is not seen', async () => {
    const store = open();
    await store.append('c1', [userMessage('m1', 'first')]);
    expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1']);
    await store.append('c1', [userMessage('m2', 'second')]);
    // No Cairn process writes without the lock: a change behind it shows the load reads no file.
    const log = readFileSync(logFile('c1'), 'utf8');
    writeFileSync(logFile('c1'), log.replaceAll('second', 'SECOND'));
    expect((await store.load('c1')).map((message) => message.content)).toEqual(['first', 'second']);
    // A fresh instance holds no lease: it reads the file, where that line now fails its checksum.
    const other = createFsConversationStore({ rootDir, onQuarantine: () => undefined });
    expect((await other.load('c1')).map((message) => message.content)).toEqual(['first']);
    await Promise.all([store.close(), other.close()]);
  });

  it('see what another instance appended once it took the lock', async () => {
    const store = open();
    await store.append('c1', [userMessage('m1', 'first')]);
    await store.load('c1');
    const other = open();
    // It asks for the lock; this idle holder lets go at once.
    await other.append('c1', [userMessage('m2', 'from the other')]);
    expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1', 'm2']);
    await store.append('c1', [userMessage('m3', 'mine again')]);
    expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1', 'm2', 'm3']);
    await Promise.all([store.close(), other.close()]);
  });

  it('give what the file holds after every append, windows included', async () => {
    const store = open();
    for (let turn = 1; turn <= 12; turn++) {
      await store.append(
        'c1',
        turn % 3 === 0 ? toolTurn(`t${turn}`, turn % 4) : [userMessage(`m${turn}`, `${turn}`)],
      );
      const fromFile = open();
      for (const window of [
        undefined,
        { limit: 3, direction: 'backward' as const },
        { fromSeq: 2, toSeq: 5 },
      ]) {
        expect(await store.load('c1', window)).toEqual(await fromFile.load('c1', window));
      }
      await fromFile.close();
    }
    await store.close();
  });

  it('are forgotten with a deleted conversation', async () => {
    const store = open();
    await store.append('c1', [userMessage('m1', 'first')]);
    await store.load('c1');
    await store.deleteConversation('c1');
    expect(await store.load('c1')).toEqual([]);
    await store.append('c1', [userMessage('m1', 'again')]);
    expect((await store.load('c1')).map((message) => message.content)).toEqual(['again']);
    await store.close();
  });
});
