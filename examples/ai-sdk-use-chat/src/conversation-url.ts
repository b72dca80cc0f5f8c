import { generateId } from 'ai';

const PARAM = 'conversation';

/**
 * The conversation shown, from `?conversation=<id>`; a new id (put into the URL without a
 * navigation) when there is none. With the id in the URL a reload opens the same conversation and
 * resumes its running answer. The id is the chat id `useChat` sends, which cairn-server uses as the
 * Cairn conversation id (creating the conversation on the first message).
 */
export function conversationIdFromUrl(): string {
  const url = new URL(window.location.href);
  const existing = url.searchParams.get(PARAM);
  if (existing !== null && existing !== '') return existing;
  const id = generateId();
  url.searchParams.set(PARAM, id);
  window.history.replaceState(null, '', url);
  return id;
}

/** Opens a new, empty conversation. */
export function startNewConversation(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete(PARAM);
  window.location.assign(url);
}
