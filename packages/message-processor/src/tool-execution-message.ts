import type { ConversationMessage, OpenAIToolCall, ToolExecutionMetadata } from '@cairn/core';
import { toolArgumentsOf } from './parse-tool-arguments.js';
import type { ToolProcessorRegistry } from './tool-processors/index.js';

/** What a display `tool_execution` message is made of: the call, its assistant message, its result. */
export interface ToolExecutionParts {
  call: OpenAIToolCall;
  assistant: ConversationMessage;
  /** The `tool` message answering the call; absent when it never came. */
  result?: ConversationMessage;
  registry: ToolProcessorRegistry;
  cwd?: string;
}

/**
 * One display message for a tool call and its result (RFC-20250124-001): the summary as content,
 * the merged call and result in `toolExecution`. An interrupted or missing result is `unfinished`.
 */
export function toolExecutionMessage({
  call,
  assistant,
  result,
  registry,
  cwd,
}: ToolExecutionParts): ConversationMessage {
  const finished = result !== undefined && result.interrupted !== true;
  const toolName = call.function.name;
  const input = toolArgumentsOf(call);
  const output = finished ? (result.content ?? '') : '';
  const isError = finished && result.isError === true;
  const { summary, details } = registry.describe({
    toolName,
    toolUseId: call.id,
    input,
    output,
    isError,
    status: finished ? 'completed' : 'unfinished',
    ...(finished && result.structuredResult !== undefined ? { structured: result.structuredResult } : {}),
    ...(cwd === undefined ? {} : { cwd }),
  });
  const durationMs = result?.duration ?? 0;
  const toolExecution: ToolExecutionMetadata = {
    toolName,
    toolUseId: call.id,
    input,
    ...(finished ? {} : { status: 'unfinished' as const }),
    output,
    isError,
    durationMs,
    summary,
    ...(details === undefined ? {} : { details }),
  };
  // Where the display message sits in the log: at its result, or at its call when there is none.
  const anchor = result ?? assistant;
  return {
    id: `${assistant.id}:${call.id}`,
    role: 'assistant',
    createdAt: assistant.createdAt,
    content: summary,
    partType: 'tool_execution',
    toolName,
    duration: durationMs,
    toolExecution,
    ...contextFields(anchor),
    ...(finished && result.fullOutputPath !== undefined ? { fullOutputPath: result.fullOutputPath } : {}),
  };
}

/** The fields saying which session a message belongs to and where it is in the log. */
export function contextFields(message: ConversationMessage): Partial<ConversationMessage> {
  const fields: Partial<ConversationMessage> = {};
  if (message.mode !== undefined) fields.mode = message.mode;
  if (message.runId !== undefined) fields.runId = message.runId;
  if (message.agentId !== undefined) fields.agentId = message.agentId;
  if (message.seq !== undefined) fields.seq = message.seq;
  return fields;
}
