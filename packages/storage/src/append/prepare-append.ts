import {
  type AppendOptions,
  assertSafeId,
  CairnError,
  type ConversationMessage,
  parseMessageForStorage,
} from '@cairn/core';
import { hasInlineMedia, offloadContentParts } from '../attachments/offload-parts.js';
import {
  type BlobWriter,
  needsOffloading,
  prepareToolMessageForStorage,
} from '../offload/prepare-tool-message-for-storage.js';
import { assertDistinctMessageIds } from './message-ids.js';

const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/**
 * A message ready to be written: a plain JSON copy, validated, offloaded, without a `seq` (the store
 * assigns it).
 */
export type PreparedMessage = Omit<ConversationMessage, 'seq'>;

function checkAppendOptions(options: AppendOptions): void {
  const { expectedSeq, idempotencyKey } = options;
  if (expectedSeq !== undefined && !(Number.isSafeInteger(expectedSeq) && expectedSeq >= 0)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `expectedSeq must be a non-negative integer, got ${String(expectedSeq)}`,
    );
  }
  if (
    idempotencyKey !== undefined &&
    !(
      typeof idempotencyKey === 'string' &&
      idempotencyKey.length > 0 &&
      idempotencyKey.length <= MAX_IDEMPOTENCY_KEY_LENGTH
    )
  ) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `idempotencyKey must be a string of 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
    );
  }
}

/**
 * The part of `append` every backend shares: checks the id, the options, every message and that no
 * id appears twice in the batch (one bad message rejects the whole batch, so nothing is written),
 * and offloads large tool outputs and the bytes of media parts (`offloadContentParts`) through `blobs`. Each message is copied into its plain JSON form
 * before it is validated, so what was validated is what the backend writes. A `seq` the caller set
 * is dropped: the store assigns it. Call it before taking the store's lock (it hashes media bytes,
 * which takes a while for a 20 MB image). Pass `collectBlobs().writer` and write the collected blobs only
 * once the append is accepted (after the replay, `expectedSeq` and `assertNewMessageIds` checks), so
 * a refused append changes no stored output.
 */
export async function prepareAppend(
  blobs: BlobWriter,
  conversationId: string,
  messages: readonly ConversationMessage[],
  options: AppendOptions = {},
): Promise<PreparedMessage[]> {
  assertSafeId('conversationId', conversationId);
  checkAppendOptions(options);
  if (!Array.isArray(messages)) {
    throw new CairnError('INVALID_ARGUMENT', 'append expects an array of messages');
  }
  const plain = messages.map((message) => parseMessageForStorage(message));
  assertDistinctMessageIds(plain);
  const prepared: PreparedMessage[] = [];
  for (const message of plain) {
    const withParts = hasInlineMedia(message)
      ? await offloadContentParts(blobs, conversationId, message)
      : message;
    const { seq: _ignored, ...stored } = needsOffloading(withParts)
      ? await prepareToolMessageForStorage(blobs, conversationId, withParts)
      : withParts;
    prepared.push(stored);
  }
  return prepared;
}

/**
 * Gives the prepared messages consecutive `seq`s after `lastSeq`, in place (they are the append's
 * own copies, made by `prepareAppend`), and returns them as stored messages.
 */
export function assignSeqs(prepared: PreparedMessage[], lastSeq: number): ConversationMessage[] {
  const stored = prepared as ConversationMessage[];
  for (let index = 0; index < stored.length; index++)
    (stored[index] as ConversationMessage).seq = lastSeq + index + 1;
  return stored;
}

/** Throws `STORE_CONFLICT` when an optimistic append's `expectedSeq` is not the current last `seq`. */
export function assertExpectedSeq(
  conversationId: string,
  expectedSeq: number | undefined,
  lastSeq: number,
): void {
  if (expectedSeq === undefined || expectedSeq === lastSeq) return;
  throw new CairnError(
    'STORE_CONFLICT',
    `Conversation ${conversationId} is at seq ${lastSeq}, not the expected ${expectedSeq}: reload and retry`,
    { details: { conversationId, expectedSeq, lastSeq } },
  );
}

/**
 * The result of an append retried with an `idempotencyKey` that already landed: the stored messages
 * of the first append. Reusing a key for different messages is a caller bug: `STORE_CONFLICT`.
 */
export function replayIdempotentAppend(
  conversationId: string,
  idempotencyKey: string,
  stored: readonly ConversationMessage[],
  incoming: readonly PreparedMessage[],
): { seqs: number[]; messages: ConversationMessage[] } {
  const same =
    stored.length === incoming.length && stored.every((message, index) => message.id === incoming[index]?.id);
  if (!same) {
    throw new CairnError(
      'STORE_CONFLICT',
      `idempotencyKey ${JSON.stringify(idempotencyKey)} was already used for different messages in conversation ${conversationId}`,
      { details: { conversationId, idempotencyKey } },
    );
  }
  return { seqs: stored.map((message) => message.seq ?? 0), messages: [...stored] };
}
