import { CairnError, type ConversationMessage, type ConversationStore } from '@cairn/core';

/** The outcome of a claim: the record is ours (stored now), or someone else's record holds its id. */
export type Claim =
  | { claimed: true; record: ConversationMessage }
  | { claimed: false; held: ConversationMessage };

const ATTEMPTS = 3;

/**
 * Appends a record whose id says what it claims (a request's one decision, one attempt of a call):
 * a message id is unique in a conversation in every store, under the store's own lock, so of all the
 * processes appending the same id exactly one lands. Deliberately without an `idempotencyKey`: a key
 * would make a second claimant's append look like a retry of the first and report it a success.
 * A retried append that had landed finds its own record (`isOwn`) and is the claimant's after all.
 */
export async function claimRecord(
  store: ConversationStore,
  conversationId: string,
  record: ConversationMessage,
  isOwn: (held: ConversationMessage) => boolean,
): Promise<Claim> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { messages } = await store.append(conversationId, [record]);
      return { claimed: true, record: messages[0] ?? record };
    } catch (error) {
      if (!CairnError.is(error)) throw error;
      if (error.code === 'STORE_CONFLICT' && error.details?.messageId === record.id) {
        const held = await heldRecord(store, conversationId, record.id, error.details.seq);
        return isOwn(held) ? { claimed: true, record: held } : { claimed: false, held };
      }
      if (attempt >= ATTEMPTS || !error.retryable) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
}

async function heldRecord(
  store: ConversationStore,
  conversationId: string,
  id: string,
  seq: unknown,
): Promise<ConversationMessage> {
  const near = typeof seq === 'number' ? await store.load(conversationId, { fromSeq: seq, toSeq: seq }) : [];
  const held =
    near.find((message) => message.id === id) ??
    (await store.load(conversationId)).find((message) => message.id === id);
  if (held === undefined) {
    throw new CairnError(
      'STORE_CORRUPT',
      `The store refused message id ${id} as taken but holds no such message`,
      {
        details: { conversationId, messageId: id },
      },
    );
  }
  return held;
}
