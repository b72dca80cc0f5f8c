// The lost-message check: every conversation the bench made must hold exactly `turns` user and
// `turns` assistant messages, every answer with all its model chunks, and the store no other
// conversation. run.mjs opens a persistent store again after its server process has exited (so
// only what reached the disk counts); the memory store is counted inside the server before it closes.
import { STAMP_PATTERN } from './stamped-model.mjs';

/** `groups`: `{ ids, turns }` — conversations and the turns each must hold. */
export async function countStore(store, groups, chunks) {
  const counts = {
    conversations: groups.reduce((sum, { ids }) => sum + ids.length, 0),
    expected: 0,
    found: 0,
    lost: 0,
    extra: 0,
    shortAnswers: 0,
  };
  for (const { ids, turns } of groups) {
    for (const id of ids) {
      const messages = await store.load(id, { limit: 10 * turns });
      const users = messages.filter((message) => message.role === 'user').length;
      const answers = messages.filter((message) => message.role === 'assistant');
      counts.expected += 2 * turns;
      counts.found += messages.length;
      counts.lost += Math.max(0, turns - users) + Math.max(0, turns - answers.length);
      counts.extra += Math.max(0, users - turns) + Math.max(0, answers.length - turns);
      counts.extra += messages.length - users - answers.length;
      for (const answer of answers) {
        if ((answer.content ?? '').match(STAMP_PATTERN)?.length !== chunks) counts.shortAnswers++;
      }
    }
  }
  let stored = 0;
  let cursor;
  do {
    const page = await store.listConversations({ limit: 500, ...(cursor === undefined ? {} : { cursor }) });
    stored += page.conversations.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  counts.storedConversations = stored;
  return counts;
}

/** Lost, extra and short messages, and conversations missing or extra: 0 when nothing was lost. */
export const lostMessages = (counts) =>
  counts.lost +
  counts.extra +
  counts.shortAnswers +
  Math.abs(counts.storedConversations - counts.conversations);
