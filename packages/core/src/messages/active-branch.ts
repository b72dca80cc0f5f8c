import type { ConversationMessage } from './conversation-message.js';

/**
 * The conversation as it stands after edits and regenerations. The log is append-only and its
 * messages form a tree: each message follows the one before it in the log, except a branch start
 * (`branchFrom: N`), which takes the place of the message at seq N — it follows what that one
 * followed. The active branch is the path from the first message to the last one: what a replaced
 * message and the messages after it said stays in the log, off the path. A `branchFrom` naming no
 * earlier stored message is ignored (nothing is hidden by a bad value). The log in seq order in, the
 * path in seq order out; a log without branches comes back as it is.
 */
export function activeBranch<T extends Pick<ConversationMessage, 'seq' | 'branchFrom'>>(
  log: readonly T[],
): readonly T[] {
  if (!log.some((message) => message.branchFrom !== undefined)) return log;
  const indexOfSeq = new Map<number, number>();
  log.forEach((message, index) => {
    if (message.seq !== undefined) indexOfSeq.set(message.seq, index);
  });
  // Where the message at `index` stands in the tree: a branch start stands where the message it replaced did.
  const placeOf = (index: number): number => {
    let place = index;
    for (;;) {
      const { seq, branchFrom } = log[place] as T;
      const replaced = branchFrom === undefined ? undefined : indexOfSeq.get(branchFrom);
      if (replaced === undefined || seq === undefined || (branchFrom as number) >= seq) return place;
      place = replaced;
    }
  };
  const path: T[] = [];
  for (let index = log.length - 1; index >= 0; index = placeOf(index) - 1) path.push(log[index] as T);
  return path.reverse();
}
