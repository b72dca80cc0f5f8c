import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createOtelTelemetry, type OtelTelemetryOptions } from '../src/index.js';

/**
 * A real SDK: tracer provider with an in-memory exporter, a meter provider, the async context
 * manager (unless `contextManager: false`: no active context is carried at all).
 */
export function startOtel(
  options: Pick<OtelTelemetryOptions, 'recordContent'> & { contextManager?: boolean } = {},
) {
  const { contextManager = true, ...telemetryOptions } = options;
  if (contextManager) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = createOtelTelemetry({ tracerProvider, meterProvider, ...telemetryOptions });
  const tracer = tracerProvider.getTracer('test');
  return {
    telemetry,
    tracer,
    spans: () => spans.getFinishedSpans(),
    async metrics() {
      await reader.forceFlush();
      return (
        metricExporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((scope) => scope.metrics) ?? []
      );
    },
    async stop() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
      trace.disable();
      metrics.disable();
      propagation.disable();
    },
  };
}

/** The span's parent span id (SDK 2: `parentSpanContext`). */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

export const byName = (spans: readonly ReadableSpan[], name: string): ReadableSpan[] =>
  spans.filter((span) => span.name === name);

/** The value, which the test expects to be there. */
export function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}
