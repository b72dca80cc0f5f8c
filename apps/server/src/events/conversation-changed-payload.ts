import { z } from 'zod';
import type { ConversationChanged } from './conversation-events.js';

// Short keys: a NOTIFY payload must stay under 8000 bytes, and every instance parses every notice.
// `d: 1` marks a deletion. Unknown keys are ignored, so a later version may add some, and an instance that
// predates `d` reads a deletion (sent with `s: 0`) as a change it has already seen: harmless.
const PayloadSchema = z.object({
  c: z.string().min(1),
  s: z.number().int().min(-1),
  d: z.literal(1).optional(),
});

export function encodeConversationChanged(event: ConversationChanged): string {
  return JSON.stringify({ c: event.conversationId, s: event.lastSeq, ...(event.deleted ? { d: 1 } : {}) });
}

/** The event in a NOTIFY payload, or `undefined` when the payload is not one of ours. */
export function decodeConversationChanged(payload: string | undefined): ConversationChanged | undefined {
  let json: unknown;
  try {
    json = JSON.parse(payload ?? '');
  } catch {
    return undefined;
  }
  const parsed = PayloadSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { c: conversationId, s: lastSeq, d } = parsed.data;
  return d === 1 ? { conversationId, lastSeq, deleted: true } : { conversationId, lastSeq };
}
