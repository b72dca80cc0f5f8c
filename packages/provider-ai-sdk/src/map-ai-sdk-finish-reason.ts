import type { FinishReason } from '@cairn/core';

/** A finish reason as V2 gives it (a string) or V3 and V4 do (`{ unified, raw }`). */
export type AiSdkFinishReason = string | { unified: string; raw?: string | undefined };

const UNIFIED: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
  // V4: the provider stopped mid-answer (a pause, a dropped turn); nothing Cairn names.
  interrupted: 'other',
  other: 'other',
  unknown: 'other',
};

/**
 * The AI SDK's finish reason → Cairn's, with the provider's own value kept as `rawReason` (V3
 * and V4 give it as `raw`; V2 gives only the unified one, so a V2 model's answer has none).
 */
export function mapAiSdkFinishReason(finishReason: AiSdkFinishReason): {
  reason: FinishReason;
  rawReason?: string;
} {
  const unified = typeof finishReason === 'string' ? finishReason : finishReason.unified;
  const raw = typeof finishReason === 'string' ? undefined : finishReason.raw;
  const reason = UNIFIED[unified] ?? 'other';
  return raw === undefined ? { reason } : { reason, rawReason: raw };
}
