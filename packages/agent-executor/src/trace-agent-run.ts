import { definedFields, type Telemetry } from '@cairn/core';
import type { AgentRunOptions } from './agent-executor-options.js';
import type { AgentRunResult } from './agent-run-result.js';
import type { RunSettings } from './run-settings.js';

/**
 * The trace context for the CLI's environment: `TRACEPARENT`/`TRACESTATE`, the OpenTelemetry
 * convention for carrying W3C Trace Context to a child process.
 */
export function traceEnv(telemetry: Telemetry): Record<string, string> {
  const { traceparent, tracestate } = telemetry.traceContext();
  return definedFields({ TRACEPARENT: traceparent, TRACESTATE: tracestate });
}

/** One run inside the telemetry's agent invocation (a CLIENT `invoke_agent`: the agent is another process). */
export function traceAgentRun(
  settings: RunSettings,
  request: AgentRunOptions,
  conversationId: string,
  run: (settings: RunSettings, request: AgentRunOptions, conversationId: string) => Promise<AgentRunResult>,
): Promise<AgentRunResult> {
  const invocation = {
    agentName: settings.cli.name,
    conversationId,
    remote: true,
    ...definedFields({ agentId: settings.agentId, model: settings.model }),
  };
  return settings.telemetry.invokeAgent(invocation, async (scope) => {
    // The CLI's TRACEPARENT is this run's span, however the context flows.
    const result = await run({ ...settings, telemetry: scope.telemetry }, request, conversationId);
    scope.end(definedFields({ usage: result.usage, error: result.error }));
    return result;
  });
}
