import type { ConversationPage, ConversationSummary } from '@cairn/core';
import { ApiRequestError, conversationPath, json, request } from './api-client.js';

/** Rows per page of the conversation list (and of a search). */
export const CONVERSATION_PAGE_SIZE = 50;

export type { ConversationPage };

/** One page of `GET /v1/conversations`, most recently updated first; `query` searches titles and message text. */
export function listConversationPage(
  options: { query?: string; cursor?: string } = {},
  signal?: AbortSignal,
): Promise<ConversationPage> {
  const params = new URLSearchParams({ limit: String(CONVERSATION_PAGE_SIZE) });
  if (options.query !== undefined && options.query !== '') params.set('q', options.query);
  if (options.cursor !== undefined) params.set('cursor', options.cursor);
  return json<ConversationPage>(`/v1/conversations?${params}`, signal === undefined ? {} : { signal });
}

/** Sets the conversation's title; the updated row. */
export function renameConversation(id: string, title: string): Promise<ConversationSummary> {
  return json<ConversationSummary>(conversationPath(id), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
}

/**
 * Deletes the conversation; one already gone counts as deleted. Always `keepalive`: a delete sent
 * as the page is being left must outlive it.
 */
export async function deleteConversation(id: string): Promise<void> {
  try {
    await request(conversationPath(id), { method: 'DELETE', keepalive: true });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return;
    throw error;
  }
}
