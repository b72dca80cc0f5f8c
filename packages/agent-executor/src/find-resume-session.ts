import type { ConversationStore } from '@cairn/core';
import { readAgentSession } from '@cairn/message-processor';

const PAGE_SIZE = 200;

/**
 * The agent session to resume: the newest `providerMetadata[provider].sessionId` in the stored log,
 * read from the end a page at a time (a long conversation is not loaded whole). Undefined when no
 * message of that provider names a session.
 */
export async function findResumeSession(
  store: ConversationStore,
  conversationId: string,
  provider: string,
): Promise<string | undefined> {
  let toSeq: number | undefined;
  for (;;) {
    const page = await store.load(conversationId, {
      direction: 'backward',
      limit: PAGE_SIZE,
      ...(toSeq === undefined ? {} : { toSeq }),
    });
    for (const message of page) {
      const sessionId = readAgentSession(message, provider)?.sessionId;
      if (sessionId !== undefined) return sessionId;
    }
    const oldest = page.at(-1)?.seq;
    if (page.length < PAGE_SIZE || oldest === undefined || oldest <= 1) return undefined;
    toSeq = oldest - 1;
  }
}
