import type { FinishReason } from '../agent-output/finish-reason.js';
import type { TokenUsage } from '../agent-output/token-usage.js';
import type { CairnError } from '../errors/cairn-error.js';
import type { OpenAIToolCall } from '../messages/openai-chat-message.js';
import type { ModelRequest, ModelResult } from '../model/model-adapter.js';
import type { ToolCallResult } from '../tools/tool.js';

/** One invocation of an agent: a runtime turn or run step, or an agent CLI's run. */
export interface AgentInvocation {
  /** The agent's name; its id (or the CLI's name) when it has no other. */
  agentName?: string;
  agentId?: string;
  conversationId?: string;
  /** The provider and model it runs on, when known (`ModelAdapter.provider`, `modelId`). */
  provider?: string;
  model?: string;
  /** The agent runs in another process (an agent CLI), not in this one. */
  remote?: boolean;
}

/** How an invocation ended: its total usage, last finish reason, and the error when it failed. */
export interface AgentInvocationOutcome {
  usage?: TokenUsage;
  finishReason?: FinishReason;
  /** The model that answered last (`ModelResult.modelId`). */
  responseModel?: string;
  /** A `CairnError`, or an agent CLI run's `{ code, message }`. */
  error?: Pick<CairnError, 'code' | 'message'>;
}

/** One model call, as the loop sends it. */
export interface ModelCall {
  provider: string;
  model: string;
  request: ModelRequest;
  conversationId?: string;
}

/** One tool call the model asked for. */
export interface ToolExecution {
  call: OpenAIToolCall;
}

/** One HTTP request a server handles. */
export interface ServerRequest {
  method: string;
  /** The route's template (`/v1/conversations/:id/messages`), when known before routing. */
  route?: string;
  /** The request's headers: `traceparent`/`tracestate` continue the caller's trace. */
  headers: Record<string, string | string[] | undefined>;
}

/** How a request ended: its status, and the route that answered it (known after routing). */
export interface ServerResponse {
  status: number;
  route?: string;
}

/** Records the end of a piece of work; a throw out of the work is recorded as its error instead. */
export interface TelemetryScope<OUTCOME> {
  end(outcome: OUTCOME): void;
  /**
   * The telemetry for work inside this piece: its spans are this one's children and its
   * `traceContext()` is this one's. Cairn hands it on explicitly (runtime → loop, server request →
   * turn, agent run → the CLI's environment), so Cairn's own spans nest correctly whether or not a
   * context manager carries the active context through every promise (its cost on Node 20 and 22).
   */
  readonly telemetry: Telemetry;
}

/**
 * Where Cairn reports its work to a tracer (`createOtelTelemetry` of `@cairn/otel`). Each method
 * wraps the work in a callback, so an implementation can make its span the active context for
 * everything inside it (the provider SDK's HTTP spans become the model call's children) and ends
 * it when the work settles; `end` records what the work produced. A throw is recorded and rethrown.
 */
export interface Telemetry {
  invokeAgent<T>(
    invocation: AgentInvocation,
    work: (scope: TelemetryScope<AgentInvocationOutcome>) => Promise<T>,
  ): Promise<T>;
  modelCall<T>(call: ModelCall, work: (scope: TelemetryScope<ModelResult>) => Promise<T>): Promise<T>;
  toolExecution<T>(
    execution: ToolExecution,
    work: (scope: TelemetryScope<ToolCallResult>) => Promise<T>,
  ): Promise<T>;
  serverRequest<T>(
    request: ServerRequest,
    work: (scope: TelemetryScope<ServerResponse>) => Promise<T>,
  ): Promise<T>;
  /**
   * The active trace context as W3C Trace Context fields (`traceparent`, `tracestate`), to hand to
   * a child process or an outgoing request; empty when nothing is traced.
   */
  traceContext(): Record<string, string>;
}

const run = <T>(_: unknown, work: (scope: TelemetryScope<never>) => Promise<T>): Promise<T> => work(NO_SCOPE);

/** Telemetry that records nothing: the work runs as it is, at the cost of one call. */
export const noopTelemetry: Telemetry = {
  invokeAgent: run,
  modelCall: run,
  toolExecution: run,
  serverRequest: run,
  traceContext: () => ({}),
};

const NO_SCOPE: TelemetryScope<never> = { end: () => {}, telemetry: noopTelemetry };
