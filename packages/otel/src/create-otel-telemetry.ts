import {
  type AgentInvocation,
  type AgentInvocationOutcome,
  CairnError,
  contentText,
  definedFields,
  type ModelCall,
  type ModelResult,
  type ServerRequest,
  type ServerResponse,
  type Telemetry,
  type TelemetryScope,
  type TokenUsage,
  type ToolCallResult,
  type ToolExecution,
} from '@cairn/core';
import {
  type Attributes,
  type Context,
  context,
  type Meter,
  type MeterProvider,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { genAiFinishReason, genAiInput, genAiOutput } from './gen-ai-messages.js';
import { createGenAiMetrics, type GenAiMetrics, recordTokens } from './gen-ai-metrics.js';
import { genAiProviderName } from './gen-ai-provider-name.js';
import { extractTraceContext, injectTraceContext } from './w3c-trace-context.js';

export interface OtelTelemetryOptions {
  /** The tracer to start spans with; default one from `tracerProvider`. */
  tracer?: Tracer;
  /** Default the global provider (`trace.getTracerProvider()`, what `provider.register()` set). */
  tracerProvider?: TracerProvider;
  /** The meter of the GenAI metrics; default one from `meterProvider`. */
  meter?: Meter;
  /** Default the global provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
  /**
   * Record message content: the system instructions, input and output messages of each model
   * call, and each tool call's arguments and result. Off by default — prompts and tool outputs
   * often hold what should not leave the process. Media bytes are never recorded, only URLs.
   */
  recordContent?: boolean;
}

/** The instrumentation scope's name, on every span and metric. */
export const OTEL_SCOPE_NAME = '@cairn/otel';

/** What ended a piece of work: a CairnError's code, else the error's class name. */
function errorType(error: unknown): string {
  if (CairnError.is(error)) return error.code;
  return error instanceof Error ? error.constructor.name : '_OTHER';
}

function fail(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function usageAttributes(usage: TokenUsage): Attributes {
  return {
    'gen_ai.usage.input_tokens': usage.inputTokens,
    'gen_ai.usage.output_tokens': usage.outputTokens,
    ...definedFields({
      'gen_ai.usage.cache_read.input_tokens': usage.cacheReadTokens,
      'gen_ai.usage.cache_creation.input_tokens': usage.cacheWriteTokens,
    }),
  };
}

/** One span under way: its duration metric is recorded with the attributes known when it ends. */
interface Operation {
  span: Span;
  /** The metrics' attributes (a subset of the span's), completed as the work ends. */
  metricAttributes: Attributes | undefined;
  startedAt: number;
}

/**
 * Cairn's telemetry in the OpenTelemetry GenAI semantic conventions: `invoke_agent {agent}` per
 * turn or agent CLI run, `chat {model}` per model call (CLIENT), `execute_tool {tool}` per tool call,
 * a SERVER span per request continuing the caller's `traceparent`; the
 * `gen_ai.client.token.usage` and `gen_ai.client.operation.duration` histograms. Cairn nests its
 * own spans explicitly (each scope's `telemetry`), so their tree is right even without a context
 * manager; each span is also the active context of the work it wraps, so with one (e.g.
 * AsyncLocalStorage) spans started inside (an instrumented HTTP client's) are its children.
 */
export function createOtelTelemetry(options: OtelTelemetryOptions = {}): Telemetry {
  return telemetryUnder(undefined, otelRecorder(options));
}

// What every span needs, shared by the telemetry of each scope.
interface OtelRecorder {
  tracer: Tracer;
  genAiMetrics: GenAiMetrics;
  recordContent: boolean;
}

function otelRecorder(options: OtelTelemetryOptions): OtelRecorder {
  const tracer =
    options.tracer ?? (options.tracerProvider ?? trace.getTracerProvider()).getTracer(OTEL_SCOPE_NAME);
  const meter =
    options.meter ?? (options.meterProvider ?? metrics.getMeterProvider()).getMeter(OTEL_SCOPE_NAME);
  return {
    tracer,
    genAiMetrics: createGenAiMetrics(meter),
    recordContent: options.recordContent === true,
  };
}

/**
 * The telemetry whose spans are children of `parent` (a scope's span), or of the active context
 * when there is none (the caller's span, through whatever context manager is registered).
 */
function telemetryUnder(parentContext: Context | undefined, recorder: OtelRecorder): Telemetry {
  const { tracer, genAiMetrics, recordContent } = recorder;
  const parentOf = () => parentContext ?? context.active();

  // Runs `work` in a new span, active inside it; a throw is recorded and rethrown; the span ends
  // when the work settles, and with metric attributes its duration is recorded. The scope's own
  // telemetry names the span as the parent of what the work traces, explicitly.
  async function traced<T, OUTCOME>(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    metricAttributes: Attributes | undefined,
    record: (operation: Operation, outcome: OUTCOME) => void,
    work: (scope: TelemetryScope<OUTCOME>) => Promise<T>,
    parent = parentOf(),
  ): Promise<T> {
    const span = tracer.startSpan(name, { kind, attributes }, parent);
    const operation: Operation = { span, metricAttributes, startedAt: performance.now() };
    const inside = trace.setSpan(parent, span);
    let child: Telemetry | undefined;
    const scope: TelemetryScope<OUTCOME> = {
      end: (outcome: OUTCOME) => record(operation, outcome),
      get telemetry() {
        child ??= telemetryUnder(inside, recorder);
        return child;
      },
    };
    try {
      return await context.with(inside, work, undefined, scope);
    } catch (error) {
      const type = errorType(error);
      fail(span, type, error instanceof Error ? error.message : String(error));
      if (operation.metricAttributes !== undefined) operation.metricAttributes['error.type'] = type;
      throw error;
    } finally {
      span.end();
      if (operation.metricAttributes !== undefined) {
        genAiMetrics.duration.record(
          (performance.now() - operation.startedAt) / 1000,
          operation.metricAttributes,
        );
      }
    }
  }

  function endAgent(operation: Operation, outcome: AgentInvocationOutcome): void {
    const { span, metricAttributes } = operation;
    const { usage, finishReason, responseModel, error } = outcome;
    if (usage !== undefined) span.setAttributes(usageAttributes(usage));
    if (finishReason !== undefined)
      span.setAttribute('gen_ai.response.finish_reasons', [genAiFinishReason(finishReason)]);
    if (responseModel !== undefined) {
      span.setAttribute('gen_ai.response.model', responseModel);
      if (metricAttributes !== undefined) metricAttributes['gen_ai.response.model'] = responseModel;
    }
    if (error !== undefined) {
      fail(span, error.code, error.message);
      if (metricAttributes !== undefined) metricAttributes['error.type'] = error.code;
    }
  }

  function endModelCall(operation: Operation, result: ModelResult): void {
    const { span, metricAttributes } = operation;
    span.setAttributes({
      'gen_ai.response.finish_reasons': [genAiFinishReason(result.finishReason)],
      ...usageAttributes(result.usage),
      ...definedFields({ 'gen_ai.response.id': result.responseId, 'gen_ai.response.model': result.modelId }),
    });
    if (recordContent) {
      span.setAttribute(
        'gen_ai.output.messages',
        JSON.stringify(genAiOutput(result.message, result.finishReason)),
      );
    }
    if (metricAttributes !== undefined) {
      if (result.modelId !== undefined) metricAttributes['gen_ai.response.model'] = result.modelId;
      recordTokens(genAiMetrics, metricAttributes, result.usage);
    }
  }

  function endTool(operation: Operation, result: ToolCallResult): void {
    const { span } = operation;
    // Media stay out of spans: a part is its placeholder (`[image: chart.png]`), never its bytes.
    const text = contentText(result.content, { placeholders: true });
    if (recordContent) span.setAttribute('gen_ai.tool.call.result', text);
    if (result.isError) fail(span, result.errorCode ?? 'TOOL_FAILED', text.split('\n', 1)[0] ?? '');
  }

  return {
    invokeAgent(invocation: AgentInvocation, work) {
      const name = invocation.agentName ?? invocation.agentId;
      const common: Attributes = {
        'gen_ai.operation.name': 'invoke_agent',
        ...definedFields({
          'gen_ai.provider.name':
            invocation.provider === undefined ? undefined : genAiProviderName(invocation.provider),
          'gen_ai.request.model': invocation.model,
        }),
      };
      const attributes: Attributes = {
        ...common,
        ...definedFields({
          'gen_ai.agent.name': name,
          'gen_ai.agent.id': invocation.agentId,
          'gen_ai.conversation.id': invocation.conversationId,
        }),
      };
      // An agent in this process is INTERNAL; one in another process (an agent CLI) is called: CLIENT.
      const kind = invocation.remote ? SpanKind.CLIENT : SpanKind.INTERNAL;
      return traced(
        name === undefined ? 'invoke_agent' : `invoke_agent ${name}`,
        kind,
        attributes,
        { ...common },
        endAgent,
        work,
      );
    },

    modelCall(call: ModelCall, work) {
      const { request } = call;
      const common: Attributes = {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': genAiProviderName(call.provider),
        'gen_ai.request.model': call.model,
      };
      const settings = request.settings ?? {};
      const attributes: Attributes = {
        ...common,
        ...definedFields({
          'gen_ai.conversation.id': call.conversationId,
          'gen_ai.request.max_tokens': settings.maxOutputTokens,
          'gen_ai.request.temperature': settings.temperature,
          'gen_ai.request.top_p': settings.topP,
          'gen_ai.request.stop_sequences': settings.stopSequences,
          'gen_ai.request.seed': settings.seed,
          'gen_ai.output.type': request.output === undefined ? undefined : 'json',
        }),
      };
      if (recordContent) {
        const input = genAiInput(request.messages);
        if (input.system.length > 0) attributes['gen_ai.system_instructions'] = JSON.stringify(input.system);
        attributes['gen_ai.input.messages'] = JSON.stringify(input.messages);
      }
      return traced(`chat ${call.model}`, SpanKind.CLIENT, attributes, { ...common }, endModelCall, work);
    },

    toolExecution({ call }: ToolExecution, work) {
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.function.name,
        'gen_ai.tool.call.id': call.id,
        'gen_ai.tool.type': 'function',
      };
      if (recordContent) attributes['gen_ai.tool.call.arguments'] = call.function.arguments;
      return traced(
        `execute_tool ${call.function.name}`,
        SpanKind.INTERNAL,
        attributes,
        undefined,
        endTool,
        work,
      );
    },

    serverRequest(request: ServerRequest, work) {
      const parent = extractTraceContext(parentOf(), request.headers);
      const { method, route } = request;
      const attributes: Attributes = {
        'http.request.method': method,
        ...definedFields({ 'http.route': route }),
      };
      // The HTTP conventions' name: the method and the route's template (never the path: ids in it).
      const end = ({ span }: Operation, response: ServerResponse) => {
        span.setAttribute('http.response.status_code', response.status);
        if (response.route !== undefined) {
          span.setAttribute('http.route', response.route);
          span.updateName(`${method} ${response.route}`);
        }
        if (response.status >= 500) fail(span, String(response.status), `HTTP ${response.status}`);
      };
      const name = route === undefined ? method : `${method} ${route}`;
      return traced(name, SpanKind.SERVER, attributes, undefined, end, work, parent);
    },

    traceContext: () => injectTraceContext(parentOf()),
  };
}
