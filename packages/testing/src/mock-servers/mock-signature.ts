import { createHash } from 'node:crypto';
import type { ResolvedScriptTurn } from '../resolve-script-turn.js';

/** The `kind` each protocol signs with, so tests can compute the signature a response carried. */
export const MOCK_SIGNATURE_KINDS = {
  gemini: 'mock-gemini-thought-signature',
  openaiResponses: 'mock-openai-encrypted-reasoning',
} as const;

/**
 * A deterministic stand-in for a provider's opaque reasoning signature. It depends on the turn's
 * content only (not on ids or request order), so the same turn answered by `generate` and by
 * `stream` carries the same signature and parity checks can compare messages whole.
 */
export function mockSignature(kind: string, turn: ResolvedScriptTurn): string {
  return Buffer.from(`${kind}:${mockTurnDigest(turn)}`).toString('base64');
}

/** 24 hex digits that depend on the turn's content only (see `mockSignature`). */
export function mockTurnDigest(turn: ResolvedScriptTurn): string {
  const content = [
    turn.reasoning ?? '',
    turn.text ?? '',
    ...turn.toolCalls.map((call) => call.name + call.arguments),
  ];
  return createHash('sha256').update(content.join('\u0000')).digest('hex').slice(0, 24);
}

/** Whether `value` has the form `mockSignature(kind, …)` gives (any turn's): base64 of `kind:` and a digest. */
export function isMockSignature(kind: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const decoded = Buffer.from(value, 'base64');
  // Node decodes base64 leniently: re-encoding shows whether `value` was base64 at all.
  if (decoded.toString('base64') !== value) return false;
  const text = decoded.toString();
  return text.startsWith(`${kind}:`) && /^[0-9a-f]{24}$/.test(text.slice(kind.length + 1));
}
