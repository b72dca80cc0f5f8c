import { randomBytes } from 'node:crypto';
import type { ConversationStore } from '@cairn/core';
import { definedFields } from '@cairn/core';

/** A short, sortable, typeable id for a new chat: `chat-20261122-1530-a1b2c3`. */
export function newChatId(now = new Date()): string {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `chat-${stamp}-${randomBytes(3).toString('hex')}`;
}

// Runs and agent sessions have their own commands; `--continue` means the last chat.
const isChat = (id: string) => !id.startsWith('run-') && !id.startsWith('agent-');

/** The most recently updated chat conversation, for `--continue`. */
export async function latestChatId(store: ConversationStore): Promise<string | undefined> {
  let cursor: string | undefined;
  do {
    const page = await store.listConversations({ limit: 50, ...definedFields({ cursor }) });
    const found = page.conversations.find((summary) => isChat(summary.id));
    if (found !== undefined) return found.id;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return undefined;
}
