import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import { genAiProviderName } from './gen-ai-provider-name.js';

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

/** What one ended operation's measurements are recorded with: shared, never changed. */
export interface OutcomeAttributes {
  readonly duration: Readonly<Attributes>;
  readonly inputTokens: Readonly<Attributes>;
  readonly outputTokens: Readonly<Attributes>;
}

// Sets kept per map: every model a process uses; past it (names from requests?) they are made per call.
const MAX_KEPT = 256;

function kept<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size < MAX_KEPT) map.set(key, value);
  return value;
}

/**
 * The metric attributes of one operation (its name, provider and requested model) for each model
 * that answered, made once and reused: the SDK hashes a record's attributes every time and keeps
 * the first object of each set, so a copy per record would only be garbage.
 */
export class OperationMetricAttributes {
  private readonly outcomes = new Map<string | undefined, OutcomeAttributes>();

  constructor(private readonly base: Readonly<Attributes>) {}

  /** The attributes once `responseModel` answered (none known: the operation's own). */
  outcome(responseModel: string | undefined): OutcomeAttributes {
    const found = this.outcomes.get(responseModel);
    if (found !== undefined) return found;
    const duration =
      responseModel === undefined ? this.base : { ...this.base, 'gen_ai.response.model': responseModel };
    return kept(this.outcomes, responseModel, {
      duration,
      inputTokens: { ...duration, 'gen_ai.token.type': 'input' },
      outputTokens: { ...duration, 'gen_ai.token.type': 'output' },
    });
  }
}

type ByModel = Map<string | undefined, OperationMetricAttributes>;

/** The `OperationMetricAttributes` of one operation, per provider (Cairn's name) and requested model. */
export class MetricAttributesByModel {
  private readonly byProvider = new Map<string | undefined, ByModel>();

  constructor(private readonly operation: string) {}

  of(provider: string | undefined, model: string | undefined): OperationMetricAttributes {
    const byModel = this.byProvider.get(provider) ?? kept(this.byProvider, provider, new Map());
    const found = byModel.get(model);
    if (found !== undefined) return found;
    const base: Attributes = { 'gen_ai.operation.name': this.operation };
    if (provider !== undefined) base['gen_ai.provider.name'] = genAiProviderName(provider);
    if (model !== undefined) base['gen_ai.request.model'] = model;
    return kept(byModel, model, new OperationMetricAttributes(base));
  }
}
