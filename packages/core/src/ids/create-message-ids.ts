/**
 * Ids for the messages one producer makes (a processor, a tool loop): a random UUID made once,
 * then a counter. As unique as a UUID per message, without drawing random bytes for each
 * (measurable at stream rates). Every id is a safe id (`isSafeId`).
 */
export function createMessageIds(): () => string {
  // The Web Crypto global (Node ≥ 19, browsers): core imports no Node module.
  const prefix = globalThis.crypto.randomUUID();
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}
