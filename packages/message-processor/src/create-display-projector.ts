import type { ConversationMessage, OpenAIToolCall } from '@cairn/core';
import { readAgentSession } from './agent-session-metadata.js';
import { contextFields, toolExecutionMessage } from './tool-execution-message.js';
import { createToolProcessorRegistry, type ToolProcessorRegistry } from './tool-processors/index.js';

/** How the display view is made. */
export interface DisplayOptions {
  /** Merge each tool call with its result into one `tool_execution` message (default true). */
  merge?: boolean;
  /** Summaries and details per tool; the built-ins by default. */
  toolProcessors?: ToolProcessorRegistry;
  /** Paths inside it are shown relative; else the cwd the agent session recorded on its messages. */
  cwd?: string;
}

/** Turns log messages, in order, into the display view. */
export interface DisplayProjector {
  /** The display messages this log message adds (none while a tool call waits for its result). */
  push(message: ConversationMessage): ConversationMessage[];
  /** Calls that never got a result, as unfinished executions. */
  end(): ConversationMessage[];
}

interface PendingCall {
  call: OpenAIToolCall;
  assistant: ConversationMessage;
}

let builtIns: ToolProcessorRegistry | undefined;

// Made once, on first use: most projectors use the built-ins.
function builtInRegistry(): ToolProcessorRegistry {
  builtIns ??= createToolProcessorRegistry();
  return builtIns;
}

/**
 * The display view, incrementally: an assistant message becomes its reasoning (`thinking`), its
 * text, and — once each result arrives — one `tool_execution` per call, placed where the result is
 * in the log. A result with no call before it is shown on its own. Pure over the log, so live and
 * reloaded conversations look the same.
 */
export function createDisplayProjector(options: DisplayOptions = {}): DisplayProjector {
  if (options.merge === false) return { push: (message) => [{ ...message }], end: () => [] };
  const registry = options.toolProcessors ?? builtInRegistry();
  const pending = new Map<string, PendingCall>();
  let cwd = options.cwd;

  const execution = (entry: PendingCall, result?: ConversationMessage) =>
    toolExecutionMessage({
      ...entry,
      registry,
      ...(result ? { result } : {}),
      ...(cwd === undefined ? {} : { cwd }),
    });

  return {
    push(message) {
      if (message.role === 'tool' && message.tool_call_id !== undefined) {
        const entry = pending.get(message.tool_call_id);
        if (entry === undefined) return [{ ...message }];
        pending.delete(message.tool_call_id);
        return [execution(entry, message)];
      }
      if (message.role !== 'assistant') return [{ ...message }];
      if (options.cwd === undefined) cwd = readAgentSession(message)?.cwd ?? cwd;
      const shown = splitAssistantMessage(message);
      for (const call of message.tool_calls ?? []) {
        // A reused id while the first call still waits: the first will never be matched, show it now.
        const earlier = pending.get(call.id);
        if (earlier !== undefined) shown.push(execution(earlier));
        pending.set(call.id, { call, assistant: message });
      }
      return shown;
    },
    end() {
      const unfinished = Array.from(pending.values(), (entry) => execution(entry));
      pending.clear();
      return unfinished;
    },
  };
}

// An assistant message's reasoning and text, as separate display messages; its calls come later.
function splitAssistantMessage(message: ConversationMessage): ConversationMessage[] {
  const { tool_calls: calls, reasoning, ...rest } = message;
  // Its text alone is plain content; the calls it requested are shown by their executions.
  if (rest.partType === 'tool_call') delete rest.partType;
  const shown: ConversationMessage[] = [];
  const thoughts = (reasoning ?? [])
    .filter((part) => !part.redacted && part.text !== '')
    .map((part) => part.text);
  if (thoughts.length > 0) {
    shown.push({
      id: `${message.id}:thinking`,
      role: 'assistant',
      createdAt: message.createdAt,
      content: thoughts.join('\n\n'),
      partType: 'thinking',
      ...contextFields(message),
    });
  }
  const hasText = typeof message.content === 'string' && message.content !== '';
  if (hasText || (calls === undefined && thoughts.length === 0)) shown.push(rest);
  return shown;
}
