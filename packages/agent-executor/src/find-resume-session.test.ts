import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationMessage } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { findResumeSession } from './find-resume-session.js';

const at = '2026-01-01T00:00:00.000Z';
const user = (id: string): ConversationMessage => ({ id, role: 'user', createdAt: at, content: id });
const assistant = (
  id: string,
  providerMetadata?: ConversationMessage['providerMetadata'],
): ConversationMessage => ({
  id,
  role: 'assistant',
  createdAt: at,
  content: id,
  ...(providerMetadata === undefined ? {} : { providerMetadata }),
});
const claude = (id: string, sessionId: string, cwd?: string) =>
  assistant(id, { 'claude-code': { sessionId, ...(cwd === undefined ? {} : { cwd }) } });

describe('findResumeSession', () => {
  it('finds the newest session id of the provider, across pages', async () => {
    const store = createMemoryConversationStore();
    await store.append('c', [claude('old', 'session-1')]);
    await store.append('c', [claude('newer', 'session-2', '/w')]);
    await store.append('c', [assistant('gemini', { 'gemini-cli': { sessionId: 'gemini-session' } })]);
    // More than a page of messages without a session after it.
    await store.append(
      'c',
      Array.from({ length: 450 }, (_, index) => user(`u${index}`)),
    );

    expect(await findResumeSession(store, 'c', 'claude-code')).toBe('session-2');
    expect(await findResumeSession(store, 'c', 'gemini-cli')).toBe('gemini-session');
    expect(await findResumeSession(store, 'c', 'other')).toBeUndefined();
  });

  it('is undefined for an empty or unknown conversation', async () => {
    const store = createMemoryConversationStore();
    expect(await findResumeSession(store, 'none', 'claude-code', { cwd: '/w' })).toBeUndefined();
    await store.append('c', [assistant('a', { 'claude-code': { cwd: '/w' } })]);
    expect(await findResumeSession(store, 'c', 'claude-code', { cwd: '/w' })).toBeUndefined();
  });
});

describe('findResumeSession with a cwd', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('takes the newest session recorded in that directory over newer ones recorded elsewhere', async () => {
    const store = createMemoryConversationStore();
    await store.append('c', [claude('a1', 'in-a-old', '/a')]);
    await store.append('c', [claude('a2', 'in-a', '/a/')]);
    await store.append('c', [claude('b1', 'in-b', '/b')]);

    // A recorded path matches after `resolve` (the trailing slash), and so does the cwd given.
    expect(await findResumeSession(store, 'c', 'claude-code', { cwd: '/a' })).toBe('in-a');
    expect(await findResumeSession(store, 'c', 'claude-code', { cwd: '/b/../b' })).toBe('in-b');
  });

  it('counts a session recorded without a cwd as one of any directory', async () => {
    const store = createMemoryConversationStore();
    await store.append('c', [claude('b', 'in-b', '/b'), claude('unknown', 'unknown-cwd')]);

    expect(await findResumeSession(store, 'c', 'claude-code', { cwd: '/a' })).toBe('unknown-cwd');
  });

  it('rejects with INVALID_ARGUMENT, naming where the newest was recorded, when none was recorded there', async () => {
    const store = createMemoryConversationStore();
    await store.append('c', [claude('b', 'in-b', '/b'), claude('c', 'in-c', '/c'), claude('rel', 'r', 'a')]);

    const found = findResumeSession(store, 'c', 'claude-code', { cwd: '/a' });
    await expect(found).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { conversationId: 'c', provider: 'claude-code', sessionId: 'r', sessionCwd: 'a' },
    });
    await store.append('c', [claude('d', 'in-d', '/d')]);
    await expect(findResumeSession(store, 'c', 'claude-code', { cwd: '/a' })).rejects.toThrow(
      'Conversation c has no claude-code session recorded in /a: its latest one (in-d) was recorded in /d',
    );
  });

  it('matches a directory reached through a symbolic link by its real path', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-find-resume-'));
    dirs.push(root);
    const real = join(root, 'real');
    const link = join(root, 'link');
    await mkdir(real);
    await symlink(real, link, 'dir');
    const store = createMemoryConversationStore();
    // Claude Code reports its process.cwd(): the real path, whatever path it was started with.
    await store.append('c', [claude('one', 'from-real', real)]);
    await store.append('d', [claude('two', 'from-link', link)]);

    expect(await findResumeSession(store, 'c', 'claude-code', { cwd: link })).toBe('from-real');
    expect(await findResumeSession(store, 'd', 'claude-code', { cwd: real })).toBe('from-link');
    await expect(
      findResumeSession(store, 'c', 'claude-code', { cwd: join(root, 'missing') }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
