import assert from 'node:assert/strict';
import { CairnError, type CairnErrorCode, type ConversationStore } from '@cairn/core';

/** Awaits `action` and asserts it failed with a `CairnError` of `code`. */
export async function rejectsWithCode(
  action: Promise<unknown> | (() => Promise<unknown>),
  code: CairnErrorCode,
): Promise<void> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    assert.ok(CairnError.is(error), `expected a CairnError ${code}, got ${String(error)}`);
    assert.equal(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
    return;
  }
  assert.fail(`expected a CairnError ${code}, but it succeeded`);
}

/** Awaits `action`, which must fail with a `CairnError`, and returns the error for closer checks. */
export async function caughtCairnError(action: Promise<unknown>): Promise<CairnError> {
  const outcome = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(CairnError.is(outcome), `expected a CairnError, got ${String(outcome)}`);
  return outcome;
}

/** Asserts `seqs` are exactly `first, first + 1, …`. */
export function assertConsecutive(seqs: readonly (number | undefined)[], first: number): void {
  assert.deepEqual(
    seqs,
    seqs.map((_, index) => first + index),
    'seqs must be consecutive',
  );
}

/** Every conversation, following `nextCursor` through all pages. */
export async function listAll(store: ConversationStore, limit = 1000) {
  const all = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const result = await store.listConversations(cursor === undefined ? { limit } : { cursor, limit });
    all.push(...result.conversations);
    if (result.nextCursor === undefined) return all;
    cursor = result.nextCursor;
  }
  assert.fail('listConversations never stopped returning a nextCursor');
}

/**
 * What `attempt` gives once it gives something other than undefined, trying again on the next turn
 * of the event loop (no timer: the kit waits on no fixed delay); fails after `timeoutMs`.
 */
export async function eventually<T>(
  attempt: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
