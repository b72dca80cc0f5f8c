import { createHash } from 'node:crypto';

const PREFIX = 'mock-anthropic-signature:';

const digestOf = (thinking: string) => createHash('sha256').update(thinking).digest('hex').slice(0, 32);

/**
 * The signature the Anthropic mock puts on a `thinking` block. Like the real one it authenticates
 * the block's text, so the mock can refuse a replayed block whose text or signature was changed
 * (or that another provider made), without keeping any state between requests or processes.
 */
export function anthropicThinkingSignature(thinking: string): string {
  return Buffer.from(`${PREFIX}${digestOf(thinking)}`).toString('base64');
}

/** Whether `signature` is the one the mock issued for a `thinking` block with this text. */
export function isAnthropicThinkingSignature(thinking: string, signature: string): boolean {
  return signature === anthropicThinkingSignature(thinking);
}
