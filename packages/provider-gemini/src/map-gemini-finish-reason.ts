import type { FinishReason } from '@cairn/core';

// Every reason Gemini gives for withholding or cutting content (candidate finish reasons and
// prompt block reasons): a safety, recitation or policy filter acted.
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Maps Gemini's `finishReason` (or a prompt's `blockReason`) to Cairn's. Gemini ends a reply that
 * calls functions with `STOP`, so `tool_calls` is decided by the reply's content, not the reason.
 */
export function mapGeminiFinishReason(rawReason: string | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  if (rawReason === 'STOP') return 'stop';
  if (rawReason === 'MAX_TOKENS') return 'length';
  if (rawReason !== undefined && FILTERED.has(rawReason)) return 'content_filter';
  return 'other';
}
