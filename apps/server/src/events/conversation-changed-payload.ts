import { z } from 'zod';
import type { ConversationChanged } from './conversation-events.js';

// Short keys: a NOTIFY payload must stay under 8000 bytes, and every instance parses every notice.
const PayloadSchema = z.object({ c: z.string().min(1), s: z.number().int().min(-1) });

export function encodeConversationChanged(event: ConversationChanged): string {
  return JSON.stringify({ c: event.conversationId, s: event.lastSeq });
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
  return parsed.success ? { conversationId: parsed.data.c, lastSeq: parsed.data.s } : undefined;
}
