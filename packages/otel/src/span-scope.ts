import { CairnError, type Telemetry, type TelemetryScope } from '@cairn/core';
import {
  type Attributes,
  type Context,
  context,
  type Span,
  type SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type {
  GenAiMetrics,
  MetricAttributesByModel,
  OperationMetricAttributes,
  OutcomeAttributes,
} from './gen-ai-metrics.js';

/** What every span needs, shared by the telemetry of each scope. */
export interface OtelRecorder {
  tracer: Tracer;
  instruments: GenAiMetrics;
  recordContent: boolean;
  /** The metric attributes of `chat` and of `invoke_agent`, made once per provider and model. */
  chatMetrics: MetricAttributesByModel;
  agentMetrics: MetricAttributesByModel;
  /** The telemetry whose spans are children of `parent`. */
  telemetryUnder(parent: Context): Telemetry;
}

/** Records what the work produced on its span (and metrics): one function per kind, shared. */
export type Ending<OUTCOME> = (scope: SpanScope<OUTCOME>, outcome: OUTCOME) => void;

/** What ended a piece of work: a CairnError's code, else the error's class name. */
function errorType(error: unknown): string {
  if (CairnError.is(error)) return error.code;
  return error instanceof Error ? error.constructor.name : '_OTHER';
}

export function fail(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * One span under way, and the scope its work gets: one object per span (no closures), whose
 * `end` hands the outcome to the kind's shared `Ending`. With `metrics`, the operation's duration
 * is recorded when the work settles, with the attributes of how it ended.
 */
export class SpanScope<OUTCOME> implements TelemetryScope<OUTCOME> {
  readonly startedAt = performance.now();
  /** The metric attributes once the outcome named the model that answered. */
  outcome: OutcomeAttributes | undefined = undefined;
  /** `error.type` of the duration metric, when the work failed. */
  errorType: string | undefined = undefined;
  private child: Telemetry | undefined = undefined;

  constructor(
    readonly span: Span,
    readonly recorder: OtelRecorder,
    readonly metrics: OperationMetricAttributes | undefined,
    private readonly inside: Context,
    private readonly ending: Ending<OUTCOME>,
  ) {}

  end(outcome: OUTCOME): void {
    this.ending(this, outcome);
  }

  get telemetry(): Telemetry {
    this.child ??= this.recorder.telemetryUnder(this.inside);
    return this.child;
  }

  /** The metric attributes of the outcome, the answering model's (none known: the operation's own). */
  answeredBy(responseModel: string | undefined): OutcomeAttributes | undefined {
    this.outcome = this.metrics?.outcome(responseModel);
    return this.outcome;
  }

  recordDuration(): void {
    if (this.metrics === undefined) return;
    const { duration } = this.outcome ?? this.metrics.outcome(undefined);
    // A failure's set is made per call: failures are rare, and their types many.
    const attributes: Attributes =
      this.errorType === undefined ? duration : { ...duration, 'error.type': this.errorType };
    this.recorder.instruments.duration.record((performance.now() - this.startedAt) / 1000, attributes);
  }
}

/**
 * Runs `work` in a new span under `parent`, the span active inside it; a throw is recorded and
 * rethrown; the span ends when the work settles. The scope's own telemetry names the span as the
 * parent of what the work traces, explicitly.
 */
export async function traced<T, OUTCOME>(
  recorder: OtelRecorder,
  parent: Context,
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  metrics: OperationMetricAttributes | undefined,
  ending: Ending<OUTCOME>,
  work: (scope: TelemetryScope<OUTCOME>) => Promise<T>,
): Promise<T> {
  const span = recorder.tracer.startSpan(name, { kind, attributes }, parent);
  const inside = trace.setSpan(parent, span);
  const scope = new SpanScope(span, recorder, metrics, inside, ending);
  try {
    return await context.with(inside, work, undefined, scope);
  } catch (error) {
    const type = errorType(error);
    fail(span, type, error instanceof Error ? error.message : String(error));
    scope.errorType = type;
    throw error;
  } finally {
    span.end();
    scope.recordDuration();
  }
}
