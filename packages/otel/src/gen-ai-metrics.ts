import type { Attributes, Histogram, Meter } from '@opentelemetry/api';

// The conventions' explicit bucket advice for the two client histograms.
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`. */
export interface GenAiMetrics {
  tokens: Histogram;
  duration: Histogram;
}

export function createGenAiMetrics(meter: Meter): GenAiMetrics {
  return {
    tokens: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    duration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
}

/** Records one operation's tokens (input and output, by `gen_ai.token.type`). */
export function recordTokens(
  metrics: GenAiMetrics,
  attributes: Attributes,
  usage: { inputTokens: number; outputTokens: number },
): void {
  metrics.tokens.record(usage.inputTokens, { ...attributes, 'gen_ai.token.type': 'input' });
  metrics.tokens.record(usage.outputTokens, { ...attributes, 'gen_ai.token.type': 'output' });
}
