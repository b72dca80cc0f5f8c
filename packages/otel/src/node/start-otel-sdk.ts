import type { Telemetry } from '@cairn/core';
import { metrics } from '@opentelemetry/api';
import { createOtelTelemetry } from '../create-otel-telemetry.js';

export interface StartOtelSdkOptions {
  /** `service.name` when `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`) does not set one. */
  serviceName: string;
  /**
   * Record message content (`recordContent`). Default: `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`
   * is `true` in `env`.
   */
  recordContent?: boolean;
  /** Where the content switch is read; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The SDK running: the telemetry to hand on, and `shutdown` to flush and stop before exit. */
export interface OtelSdk {
  telemetry: Telemetry;
  /** Exports what is still buffered, then stops; never rejects (an unreachable collector is not the app's failure). */
  shutdown(): Promise<void>;
}

const MISSING =
  'needs the OpenTelemetry SDK: npm install @opentelemetry/sdk-trace-node @opentelemetry/sdk-metrics @opentelemetry/resources @opentelemetry/exporter-trace-otlp-http @opentelemetry/exporter-metrics-otlp-http';

/**
 * Starts the OpenTelemetry SDK the way an application without its own setup wants it: a
 * `NodeTracerProvider` (registered: the AsyncLocalStorage context manager, the W3C propagator)
 * with a batch processor to the OTLP/HTTP trace exporter, and a `MeterProvider` exporting the
 * GenAI metrics over OTLP/HTTP. The exporters read the standard variables themselves
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`,
 * …), the resource `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. The SDK packages are
 * optional peer dependencies, loaded only here.
 */
export async function startOtelSdk(options: StartOtelSdkOptions): Promise<OtelSdk> {
  const env = options.env ?? process.env;
  const [traceNode, traceExporter, sdkMetrics, metricExporter, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/resources'),
  ]).catch((error: unknown) => {
    throw new Error(`@cairn/otel/node ${MISSING}`, { cause: error });
  });
  // The service's name unless the environment names it: the environment's attributes win.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': options.serviceName }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const tracerProvider = new traceNode.NodeTracerProvider({
    resource,
    spanProcessors: [new traceNode.BatchSpanProcessor(new traceExporter.OTLPTraceExporter())],
  });
  tracerProvider.register();
  const meterProvider = new sdkMetrics.MeterProvider({
    resource,
    readers: [
      new sdkMetrics.PeriodicExportingMetricReader({ exporter: new metricExporter.OTLPMetricExporter() }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  const recordContent =
    options.recordContent ?? env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true';
  return {
    telemetry: createOtelTelemetry({ tracerProvider, meterProvider, recordContent }),
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
