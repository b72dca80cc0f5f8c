import type { ScriptFault } from './script-turn.js';

/** `retry-after` (seconds) and `retry-after-ms`, as the real APIs send them on 429/503. */
export function retryHeaders(fault: ScriptFault): Record<string, string> {
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
  if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
  return headers;
}
