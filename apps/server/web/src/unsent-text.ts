// sessionStorage, per conversation: what the user typed and has not sent outlives a reload of the tab.
const composerKey = (conversationId: string) => `cairn.unsent.${conversationId}`;
const queuedKey = (conversationId: string) => `cairn.queued.${conversationId}`;

function write(key: string, text: string): void {
  try {
    if (text === '') sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, text);
  } catch {
    // Storage full or refused (private mode): the text stays in the page only.
  }
}

/** The send box's text, as last typed. */
export const readUnsent = (conversationId: string): string =>
  sessionStorage.getItem(composerKey(conversationId)) ?? '';

export const writeUnsent = (conversationId: string, text: string): void =>
  write(composerKey(conversationId), text);

/** A message queued behind a running turn and not sent yet (`''` once sent or taken back). */
export const writeQueued = (conversationId: string, text: string): void =>
  write(queuedKey(conversationId), text);

// The conversations whose queued message this page load has looked for: only a new page load (a
// reload) can have lost the page that would have sent one; a view opened again in this page has not.
const lookedFor = new Set<string>();

/**
 * After a reload, a message that was queued and never sent goes back into the send box, before what
 * was typed there (the reload ended the page that would have sent it).
 */
export function recoverQueued(conversationId: string): void {
  if (lookedFor.has(conversationId)) return;
  lookedFor.add(conversationId);
  const queued = sessionStorage.getItem(queuedKey(conversationId));
  if (queued === null) return;
  const typed = readUnsent(conversationId);
  writeUnsent(conversationId, typed === '' ? queued : `${queued}\n${typed}`);
  write(queuedKey(conversationId), '');
}
