import {
  type Context,
  createTraceState,
  defaultTextMapGetter,
  isSpanContextValid,
  propagation,
  type SpanContext,
  trace,
} from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * The context's trace as `traceparent`/`tracestate`: the registered propagator's fields, and the
 * W3C ones in any case — a child process reading `TRACEPARENT` expects W3C Trace Context, and a
 * tracer provider given without registering a propagator still continues its trace.
 */
export function injectTraceContext(context: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context, carrier);
  const span = trace.getSpanContext(context);
  if (carrier.traceparent === undefined && span !== undefined && isSpanContextValid(span)) {
    carrier.traceparent = `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
    const state = span.traceState?.serialize();
    if (state) carrier.tracestate = state;
  }
  return carrier;
}

/** The context continuing the caller's trace from its headers (the registered propagator's, else W3C). */
export function extractTraceContext(
  context: Context,
  headers: Record<string, string | string[] | undefined>,
): Context {
  const extracted = propagation.extract(context, headers, defaultTextMapGetter);
  if (trace.getSpanContext(extracted) !== trace.getSpanContext(context)) return extracted;
  const match = TRACEPARENT.exec(first(headers.traceparent)?.trim().toLowerCase() ?? '');
  if (match === null) return context;
  const state = first(headers.tracestate);
  const span: SpanContext = {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16),
    isRemote: true,
    ...(state ? { traceState: createTraceState(state) } : {}),
  };
  return isSpanContextValid(span) ? trace.setSpanContext(context, span) : context;
}
