import type { ConversationMessage } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
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

describe('findResumeSession', () => {
  it('finds the newest session id of the provider, across pages', async () => {
    const store = createMemoryConversationStore();
    await store.append('c', [assistant('old', { 'claude-code': { sessionId: 'session-1' } })]);
    await store.append('c', [assistant('newer', { 'claude-code': { sessionId: 'session-2', cwd: '/w' } })]);
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
    expect(await findResumeSession(store, 'none', 'claude-code')).toBeUndefined();
    await store.append('c', [assistant('a', { 'claude-code': { cwd: '/w' } })]);
    expect(await findResumeSession(store, 'c', 'claude-code')).toBeUndefined();
  });
});
