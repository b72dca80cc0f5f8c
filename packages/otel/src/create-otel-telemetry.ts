import {
  type AgentInvocation,
  type AgentInvocationOutcome,
  contentText,
  type ModelCall,
  type ModelResult,
  type ServerRequest,
  type ServerResponse,
  type Telemetry,
  type TokenUsage,
  type ToolCallResult,
  type ToolExecution,
} from '@cairn/core';
import {
  type Attributes,
  type AttributeValue,
  type Context,
  context,
  type Meter,
  type MeterProvider,
  metrics,
  SpanKind,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { genAiFinishReason, genAiInput, genAiOutput } from './gen-ai-messages.js';
import { createGenAiMetrics, MetricAttributesByModel } from './gen-ai-metrics.js';
import { genAiProviderName } from './gen-ai-provider-name.js';
import { fail, type OtelRecorder, type SpanScope, traced } from './span-scope.js';
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

// An attribute the call may not have: set only when it does.
function setDefined(attributes: Attributes, key: string, value: AttributeValue | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

function setUsage(attributes: Attributes, usage: TokenUsage): void {
  attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
  attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
  setDefined(attributes, 'gen_ai.usage.cache_read.input_tokens', usage.cacheReadTokens);
  setDefined(attributes, 'gen_ai.usage.cache_creation.input_tokens', usage.cacheWriteTokens);
}

// Each kind's end builds one object of what the outcome adds and sets it on the span at once.

function endAgent(scope: SpanScope<AgentInvocationOutcome>, outcome: AgentInvocationOutcome): void {
  const { span } = scope;
  const { usage, finishReason, responseModel, error } = outcome;
  const attributes: Attributes = {};
  if (usage !== undefined) setUsage(attributes, usage);
  if (finishReason !== undefined)
    attributes['gen_ai.response.finish_reasons'] = [genAiFinishReason(finishReason)];
  setDefined(attributes, 'gen_ai.response.model', responseModel);
  span.setAttributes(attributes);
  scope.answeredBy(responseModel);
  if (error !== undefined) {
    fail(span, error.code, error.message);
    scope.errorType = error.code;
  }
}

function endModelCall(scope: SpanScope<ModelResult>, result: ModelResult): void {
  const { span, recorder } = scope;
  const { usage, modelId } = result;
  const attributes: Attributes = {
    'gen_ai.response.finish_reasons': [genAiFinishReason(result.finishReason)],
  };
  setUsage(attributes, usage);
  setDefined(attributes, 'gen_ai.response.id', result.responseId);
  setDefined(attributes, 'gen_ai.response.model', modelId);
  if (recorder.recordContent) {
    attributes['gen_ai.output.messages'] = JSON.stringify(genAiOutput(result.message, result.finishReason));
  }
  span.setAttributes(attributes);
  const metricAttributes = scope.answeredBy(modelId);
  if (metricAttributes !== undefined) {
    recorder.instruments.tokens.record(usage.inputTokens, metricAttributes.inputTokens);
    recorder.instruments.tokens.record(usage.outputTokens, metricAttributes.outputTokens);
  }
}

function endTool({ span, recorder }: SpanScope<ToolCallResult>, result: ToolCallResult): void {
  // The result's text only when it is recorded or names the failure.
  if (!recorder.recordContent && !result.isError) return;
  // Media stay out of spans: a part is its placeholder (`[image: chart.png]`), never its bytes.
  const text = contentText(result.content, { placeholders: true });
  if (recorder.recordContent) span.setAttribute('gen_ai.tool.call.result', text);
  if (result.isError) fail(span, result.errorCode ?? 'TOOL_FAILED', text.split('\n', 1)[0] ?? '');
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
  const tracer =
    options.tracer ?? (options.tracerProvider ?? trace.getTracerProvider()).getTracer(OTEL_SCOPE_NAME);
  const meter =
    options.meter ?? (options.meterProvider ?? metrics.getMeterProvider()).getMeter(OTEL_SCOPE_NAME);
  const recorder: OtelRecorder = {
    tracer,
    instruments: createGenAiMetrics(meter),
    recordContent: options.recordContent === true,
    chatMetrics: new MetricAttributesByModel('chat'),
    agentMetrics: new MetricAttributesByModel('invoke_agent'),
    telemetryUnder: (parent) => telemetryUnder(parent, recorder),
  };
  return telemetryUnder(undefined, recorder);
}

/**
 * The telemetry whose spans are children of `parent` (a scope's span), or of the active context
 * when there is none (the caller's span, through whatever context manager is registered).
 */
function telemetryUnder(parentContext: Context | undefined, recorder: OtelRecorder): Telemetry {
  const parentOf = () => parentContext ?? context.active();

  return {
    invokeAgent(invocation: AgentInvocation, work) {
      const { provider, model } = invocation;
      const name = invocation.agentName ?? invocation.agentId;
      const attributes: Attributes = { 'gen_ai.operation.name': 'invoke_agent' };
      if (provider !== undefined) attributes['gen_ai.provider.name'] = genAiProviderName(provider);
      setDefined(attributes, 'gen_ai.request.model', model);
      setDefined(attributes, 'gen_ai.agent.name', name);
      setDefined(attributes, 'gen_ai.agent.id', invocation.agentId);
      setDefined(attributes, 'gen_ai.conversation.id', invocation.conversationId);
      // An agent in this process is INTERNAL; one in another process (an agent CLI) is called: CLIENT.
      const kind = invocation.remote ? SpanKind.CLIENT : SpanKind.INTERNAL;
      return traced(
        recorder,
        parentOf(),
        name === undefined ? 'invoke_agent' : `invoke_agent ${name}`,
        kind,
        attributes,
        recorder.agentMetrics.of(provider, model),
        endAgent,
        work,
      );
    },

    modelCall(call: ModelCall, work) {
      const { request } = call;
      const attributes: Attributes = {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': genAiProviderName(call.provider),
        'gen_ai.request.model': call.model,
      };
      setDefined(attributes, 'gen_ai.conversation.id', call.conversationId);
      const { settings } = request;
      if (settings !== undefined) {
        setDefined(attributes, 'gen_ai.request.max_tokens', settings.maxOutputTokens);
        setDefined(attributes, 'gen_ai.request.temperature', settings.temperature);
        setDefined(attributes, 'gen_ai.request.top_p', settings.topP);
        setDefined(attributes, 'gen_ai.request.stop_sequences', settings.stopSequences);
        setDefined(attributes, 'gen_ai.request.seed', settings.seed);
      }
      if (request.output !== undefined) attributes['gen_ai.output.type'] = 'json';
      if (recorder.recordContent) {
        const input = genAiInput(request.messages);
        if (input.system.length > 0) attributes['gen_ai.system_instructions'] = JSON.stringify(input.system);
        attributes['gen_ai.input.messages'] = JSON.stringify(input.messages);
      }
      return traced(
        recorder,
        parentOf(),
        `chat ${call.model}`,
        SpanKind.CLIENT,
        attributes,
        recorder.chatMetrics.of(call.provider, call.model),
        endModelCall,
        work,
      );
    },

    toolExecution({ call }: ToolExecution, work) {
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.function.name,
        'gen_ai.tool.call.id': call.id,
        'gen_ai.tool.type': 'function',
      };
      if (recorder.recordContent) attributes['gen_ai.tool.call.arguments'] = call.function.arguments;
      return traced(
        recorder,
        parentOf(),
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
      const attributes: Attributes = { 'http.request.method': method };
      setDefined(attributes, 'http.route', route);
      // The HTTP conventions' name: the method and the route's template (never the path: ids in it).
      const end = ({ span }: SpanScope<ServerResponse>, response: ServerResponse) => {
        span.setAttribute('http.response.status_code', response.status);
        if (response.route !== undefined) {
          span.setAttribute('http.route', response.route);
          span.updateName(`${method} ${response.route}`);
        }
        if (response.status >= 500) fail(span, String(response.status), `HTTP ${response.status}`);
      };
      const name = route === undefined ? method : `${method} ${route}`;
      return traced(recorder, parent, name, SpanKind.SERVER, attributes, undefined, end, work);
    },

    traceContext: () => injectTraceContext(parentOf()),
  };
}
