import { createHash } from 'node:crypto';
import type { ResolvedScriptTurn } from '../resolve-script-turn.js';

/** The `kind` each protocol signs with, so tests can compute the signature a response carried. */
export const MOCK_SIGNATURE_KINDS = {
  gemini: 'mock-gemini-thought-signature',
} as const;

/**
 * A deterministic stand-in for a provider's opaque reasoning signature. It depends on the turn's
 * content only (not on ids or request order), so the same turn answered by `generate` and by
 * `stream` carries the same signature and parity checks can compare messages whole.
 */
export function mockSignature(kind: string, turn: ResolvedScriptTurn): string {
  const content = [
    turn.reasoning ?? '',
    turn.text ?? '',
    ...turn.toolCalls.map((call) => call.name + call.arguments),
  ];
  const digest = createHash('sha256').update(content.join('\u0000')).digest('hex').slice(0, 24);
  return Buffer.from(`${kind}:${digest}`).toString('base64');
}
