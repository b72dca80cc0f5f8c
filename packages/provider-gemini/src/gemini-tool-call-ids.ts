import { createHash } from 'node:crypto';
import type { GeminiFunctionCall } from './gemini-api-types.js';

/**
 * Where a function call sits: `turn` is the number of messages in the request that produced it
 * (so equal calls in different turns get different ids), `position` its index among the
 * response's function calls.
 */
export interface GeminiToolCallPosition {
  turn: number;
  position: number;
}

const SYNTHESISED_PREFIX = 'call_';

/**
 * The tool call id of a Gemini function call. The Gemini API usually sends calls without an id,
 * and Cairn needs one to pair each tool result with its call. The id is a hash of where the call
 * sits and what it says, so the same response read twice (streamed or not, replayed from a log)
 * yields the same ids. An id the API did send is kept as is. Tool results find their function's
 * name again through the assistant message's `tool_calls`, so the id never has to reach Gemini.
 */
export function geminiToolCallId(
  call: GeminiFunctionCall,
  { turn, position }: GeminiToolCallPosition,
): string {
  if (typeof call.id === 'string' && call.id !== '') return call.id;
  const digest = createHash('sha256')
    .update(JSON.stringify([turn, position, call.name, call.args ?? {}]))
    .digest('hex');
  return `${SYNTHESISED_PREFIX}${digest.slice(0, 24)}`;
}
