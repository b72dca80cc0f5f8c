import {
  type AgentOutput,
  CairnError,
  createMessageIds,
  definedFields,
  type LayeredToolPolicy,
  type ModelToolDefinition,
  mergeToolPolicies,
  noopTelemetry,
  resolveMaxToolResultChars,
  type Telemetry,
  type ToolExecutionOptions,
  type ToolHost,
  type ToolPolicy,
} from '@cairn/core';
import type { ChatToolLoopParams } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';
import { DEFAULT_STUCK_THRESHOLD } from './failing-call-tracker.js';
import { DEFAULT_OUTPUT_RETRIES, type LoopOutput, resolveLoopOutput } from './structured-output.js';

export const DEFAULT_MAX_TURNS = 20;
export const DEFAULT_TOOL_CONCURRENCY = 8;

const NO_TOOLS = createToolHost([]);

/** A callback of the caller threw: not a model failure, whatever was running when it did. */
export class CallbackFailure extends Error {
  constructor(readonly failure: unknown) {
    super('a callback failed');
  }
}

/** What one loop runs with: its parameters checked and resolved, fixed for the whole loop. */
export interface LoopRun {
  params: ChatToolLoopParams<unknown>;
  maxTurns: number;
  concurrency: number;
  stuckThreshold: number;
  maxToolResultChars: number;
  host: ToolHost;
  /** What the model is shown: the host's tools the policy lets it see. */
  tools: ModelToolDefinition[];
  streaming: boolean;
  /** Structured output, when asked for. */
  output: LoopOutput | undefined;
  generateId: () => string;
  now: () => Date;
  /** The tools' signal: the caller's abort, or the loop's own when it gives up mid-turn. */
  tooling: AbortController;
  execution: ToolExecutionOptions;
  telemetry: Telemetry;
  /** Hands an event to `onEvent`; its failure is thrown as a `CallbackFailure`. */
  emit: (event: AgentOutput) => void;
}

function positiveInteger(name: string, value: number, allowInfinity = false): number {
  if ((allowInfinity && value === Number.POSITIVE_INFINITY) || (Number.isInteger(value) && value >= 1))
    return value;
  throw new CairnError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
}

function resolvePolicy(policy: ToolPolicy | LayeredToolPolicy | undefined): ToolPolicy | undefined {
  if (policy === undefined) return undefined;
  return 'system' in policy || 'agent' in policy
    ? mergeToolPolicies(policy as LayeredToolPolicy)
    : (policy as ToolPolicy);
}

function nonNegativeInteger(name: string, value: number): number {
  if (Number.isInteger(value) && value >= 0) return value;
  throw new CairnError('INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${value}`);
}

/** Checks and resolves the parameters; throws `INVALID_ARGUMENT` for a bad limit, `UNSUPPORTED_SCHEMA` for a bad `output`. */
export function startLoopRun(params: ChatToolLoopParams<unknown>): LoopRun {
  const maxTurns = positiveInteger('maxTurns', params.maxTurns ?? DEFAULT_MAX_TURNS);
  const concurrency = positiveInteger('toolConcurrency', params.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY);
  const stuckThreshold = positiveInteger(
    'stuckThreshold',
    params.stuckThreshold ?? DEFAULT_STUCK_THRESHOLD,
    true,
  );
  const maxToolResultChars = resolveMaxToolResultChars(params.maxToolResultChars);
  const host = params.tools ?? NO_TOOLS;
  const policy = resolvePolicy(params.policy);
  const tooling = new AbortController();
  return {
    params,
    maxTurns,
    concurrency,
    stuckThreshold,
    maxToolResultChars,
    host,
    tools: host.getVisibleTools(policy === undefined ? {} : { policy }),
    streaming: params.stream ?? params.model.capabilities.streaming,
    output:
      params.output === undefined
        ? undefined
        : resolveLoopOutput(
            params.output,
            params.model,
            nonNegativeInteger('outputRetries', params.outputRetries ?? DEFAULT_OUTPUT_RETRIES),
          ),
    generateId: params.generateId ?? createMessageIds(),
    now: params.now ?? (() => new Date()),
    tooling,
    telemetry: params.telemetry ?? noopTelemetry,
    execution: {
      ...params.context,
      signal: tooling.signal,
      ...definedFields({ policy, approve: params.approve, beforeRun: params.beforeRun }),
    } as ToolExecutionOptions,
    emit: (event) => {
      try {
        params.onEvent?.(event);
      } catch (error) {
        throw new CallbackFailure(error);
      }
    },
  };
}
