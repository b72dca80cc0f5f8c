import { randomUUID } from 'node:crypto';
import {
  type AgentOutput,
  type AgentOutputOf,
  CairnError,
  type ConversationMessage,
  type ConversationMode,
  createInterruptedToolResult,
} from '@cairn/core';
import { type AgentSessionInfo, agentSessionMetadata } from './agent-session-metadata.js';
import { AssistantMessageDraft } from './assistant-message-draft.js';
import { createDisplayProjector, type DisplayOptions } from './create-display-projector.js';
import { PendingToolCalls } from './pending-tool-calls.js';

/** Default wait for a tool result before the call is recorded as interrupted: 10 minutes. */
export const DEFAULT_PENDING_TIMEOUT_MS = 600_000;

export interface MessageProcessorOptions extends DisplayOptions {
  /** Each log message, in order, ready to persist (protocol-shaped: calls, then their results). */
  onLogMessage(message: ConversationMessage): void;
  /** The display view of the same log (see `createDisplayProjector`); off when absent. */
  onDisplayMessage?(message: ConversationMessage): void;
  /**
   * A call with no result after this long gets an interrupted result in the log, so a stalled
   * agent never holds memory or leaves the log incomplete. Default 10 minutes; `Infinity` waits
   * until `end()`.
   */
  pendingTimeoutMs?: number;
  /** Copied onto every log message. */
  messageFields?: { mode?: ConversationMode; runId?: string; agentId?: string };
  /** Clock for durations and timeouts (milliseconds). */
  now?: () => number;
  /** Ids of new log messages. */
  generateId?: () => string;
}

export interface MessageProcessor {
  push(event: AgentOutput): void;
  /** The stream is over: the open message is emitted and waiting calls get interrupted results. */
  end(reason?: string): void;
  /** Calls still waiting for a result. */
  readonly pendingToolCalls: number;
}

/**
 * Turns `AgentOutput` events into the conversation log: text, reasoning and tool calls of one
 * model message become one assistant message; each tool result a `tool` message; user input,
 * errors and interruptions their own messages. With `onDisplayMessage`, the display view follows.
 */
export function createMessageProcessor(options: MessageProcessorOptions): MessageProcessor {
  const timeoutMs = options.pendingTimeoutMs ?? DEFAULT_PENDING_TIMEOUT_MS;
  if (!(timeoutMs > 0)) {
    throw new CairnError('INVALID_ARGUMENT', `pendingTimeoutMs must be a positive number, got ${timeoutMs}`);
  }
  const now = options.now ?? (() => Date.now());
  const generateId = options.generateId ?? randomUUID;
  const fields = options.messageFields ?? {};
  const projector = options.onDisplayMessage ? createDisplayProjector(options) : undefined;
  const pending = new PendingToolCalls();
  let draft: AssistantMessageDraft | undefined;
  let session: AgentSessionInfo | undefined;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;

  const emit = (message: ConversationMessage) => {
    options.onLogMessage(message);
    if (projector === undefined || options.onDisplayMessage === undefined) return;
    for (const shown of projector.push(message)) options.onDisplayMessage(shown);
  };

  const closeDraft = () => {
    if (draft === undefined) return;
    const closing = draft;
    draft = undefined;
    if (closing.isEmpty) return;
    const calls = closing.toolCalls();
    const reasoning = closing.reasoning();
    emit({
      id: generateId(),
      role: 'assistant',
      createdAt: closing.timestamp,
      content: closing.content(),
      ...(calls.length > 0 ? { tool_calls: calls, partType: 'tool_call' } : {}),
      ...(reasoning.length > 0 ? { reasoning } : {}),
      ...fields,
      // A sub-agent's messages (Claude's Task) sit between the Task call and its result: shown, not replayed.
      ...(closing.parentToolUseId === undefined ? {} : { includeInContext: false }),
      ...(session === undefined ? {} : { providerMetadata: agentSessionMetadata(session) }),
    });
    // Calls that only streamed input (no `tool_use` came) start waiting now.
    for (const call of calls) if (!pending.has(call.id)) wait(call.id, call.function.name);
  };

  // The draft an event belongs to: the open one, unless the event starts another model message.
  const draftFor = (event: AgentOutput) => {
    if (
      draft !== undefined &&
      (draft.messageId !== event.messageId || draft.parentToolUseId !== event.parentToolUseId)
    ) {
      closeDraft();
    }
    draft ??= new AssistantMessageDraft(event);
    return draft;
  };

  const interrupt = (calls: ReturnType<PendingToolCalls['takeStartedBy']>, reason: string) => {
    const createdAt = new Date(now()).toISOString();
    for (const call of calls) {
      emit({
        ...createInterruptedToolResult({
          id: generateId(),
          toolCallId: call.id,
          toolName: call.toolName,
          createdAt,
          reason,
        }),
        ...fields,
      });
    }
  };

  function wait(id: string, toolName: string) {
    pending.add({ id, toolName, startedAt: now() });
    armTimer();
  }

  // One timer for the oldest waiting call; unref'd so a forgotten processor never keeps a process up.
  function armTimer() {
    if (timer !== undefined || ended || !Number.isFinite(timeoutMs)) return;
    const oldest = pending.oldestStart();
    if (oldest === undefined) return;
    timer = setTimeout(onTimeout, Math.max(0, oldest + timeoutMs - now()));
    timer.unref();
  }

  function onTimeout() {
    timer = undefined;
    const cutoff = now() - timeoutMs;
    const oldest = pending.oldestStart();
    if (oldest !== undefined && oldest <= cutoff) {
      // The calls' assistant message goes to the log before the results that answer it.
      closeDraft();
      interrupt(pending.takeStartedBy(cutoff), `no result after ${timeoutMs} ms`);
    }
    armTimer();
  }

  const toolResult = (event: AgentOutputOf<'tool_result'>) => {
    closeDraft();
    const call = pending.take(event.toolUseId);
    const toolName = event.toolName ?? call?.toolName;
    const duration =
      event.durationMs ?? (call === undefined ? undefined : Math.max(0, now() - call.startedAt));
    emit({
      id: generateId(),
      role: 'tool',
      createdAt: event.timestamp,
      tool_call_id: event.toolUseId,
      content: event.output,
      isError: event.isError,
      partType: 'tool_result',
      ...(event.structured === undefined ? {} : { structuredResult: event.structured }),
      ...(toolName === undefined ? {} : { toolName }),
      ...(duration === undefined ? {} : { duration }),
      ...fields,
      ...(event.parentToolUseId === undefined ? {} : { includeInContext: false }),
    });
  };

  const error = (event: AgentOutputOf<'error'>) => {
    closeDraft();
    emit({
      id: generateId(),
      role: 'assistant',
      createdAt: event.timestamp,
      content: event.message,
      partType: 'error',
      errorCode: event.code,
      ...fields,
      // A skipped bad line is kept for the record; only a failure that ended the stream is for the model.
      ...(event.fatal ? {} : { includeInContext: false }),
    });
  };

  return {
    get pendingToolCalls() {
      return pending.size;
    },
    push(event) {
      if (ended) throw new CairnError('INVALID_ARGUMENT', 'the message processor has ended');
      switch (event.type) {
        case 'text_delta':
          return draftFor(event).addTextDelta(event.id, event.delta);
        case 'text':
          return draftFor(event).closeText(event.id, event.text);
        case 'reasoning_delta':
          return draftFor(event).addReasoningDelta(event.id, event.delta);
        case 'reasoning':
          return draftFor(event).closeReasoning(event);
        case 'tool_input_delta':
          return draftFor(event).addToolInputDelta(event);
        case 'tool_use':
          draftFor(event).addToolUse(event);
          return wait(event.id, event.toolName);
        case 'tool_result':
          return toolResult(event);
        case 'user_message':
          closeDraft();
          return emit({
            id: generateId(),
            role: 'user',
            createdAt: event.timestamp,
            content: event.text,
            ...fields,
          });
        case 'error':
          return error(event);
        case 'session_start':
          closeDraft();
          session = sessionOf(event, options.cwd);
          return;
        case 'finish':
        case 'session_result':
          return closeDraft();
        // Usage and unrecognised input are not conversation messages (the raw transcript keeps them).
        case 'usage':
        case 'unknown':
          return;
      }
    },
    end(reason = 'the agent stopped before the tool returned') {
      if (ended) return;
      closeDraft();
      ended = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      interrupt(pending.takeStartedBy(), reason);
      if (projector === undefined || options.onDisplayMessage === undefined) return;
      for (const shown of projector.end()) options.onDisplayMessage(shown);
    },
  };
}

function sessionOf(
  event: AgentOutputOf<'session_start'>,
  cwd: string | undefined,
): AgentSessionInfo | undefined {
  if (event.provider === undefined) return undefined;
  const sessionCwd = cwd ?? event.cwd;
  return {
    provider: event.provider,
    ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
    ...(sessionCwd === undefined ? {} : { cwd: sessionCwd }),
  };
}
