import {
  type AgentOutput,
  type AgentOutputOf,
  CairnError,
  type ConversationMessage,
  type ConversationMode,
  compactStructuredResult,
  createInterruptedToolResult,
  createMessageIds,
  definedFields,
  type JsonValue,
  type OpenAIToolCall,
  type ProviderMetadata,
} from '@cairn/core';
import { type AgentSessionInfo, agentSessionMetadata } from './agent-session-metadata.js';
import type { AssistantMessageDraft } from './assistant-message-draft.js';
import { createProjector, type DisplayOptions, splitAssistantMessage } from './create-display-projector.js';
import { OpenDrafts } from './open-drafts.js';
import { type PendingToolCall, PendingToolCalls } from './pending-tool-calls.js';
import { runningExecutionMessage } from './tool-execution-message.js';

/** Default wait for a tool result before the call is recorded as interrupted: 10 minutes. */
export const DEFAULT_PENDING_TIMEOUT_MS = 600_000;

// Node runs a longer setTimeout after 1 ms instead; a longer wait is taken in steps.
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export interface MessageProcessorOptions extends DisplayOptions {
  /** Each log message, in order, ready to persist (protocol-shaped: calls, then their results). */
  onLogMessage(message: ConversationMessage): void;
  /** The display view of the same log (see `createDisplayProjector`); off when absent. */
  onDisplayMessage?(message: ConversationMessage): void;
  /**
   * Live display, ahead of the log: when a call starts (`tool_use`), the text and reasoning its
   * assistant message has so far (each once, again only if it grew) and the call as a `running`
   * `tool_execution`, with the ids the log's display view gives them, so the finished execution
   * replaces the running one in place (`LiveDisplay` joins the two streams). The log is the same
   * with or without it: a running call is a display event, never stored, and a reloaded
   * conversation shows the finished view.
   */
  onLiveDisplayMessage?(message: ConversationMessage): void;
  /**
   * A call with no result after this long gets an interrupted result in the log, so a stalled
   * agent never holds memory or leaves the log incomplete. Default 10 minutes; `Infinity` waits
   * until `end()`.
   */
  pendingTimeoutMs?: number;
  /** Copied onto every log message (read once, when the processor is made). */
  messageFields?: MessageFields;
  /** Clock for durations and timeouts (milliseconds). */
  now?: () => number;
  /** Ids of new log messages. */
  generateId?: () => string;
}

/** Which session wrote the messages: set on every log message. */
export interface MessageFields {
  mode?: ConversationMode;
  runId?: string;
  agentId?: string;
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
  const generateId = options.generateId ?? createMessageIds();
  const withFields = fieldsAdder(options.messageFields ?? {});
  // The inputs of the calls of the message being emitted, for the projector (see `createProjector`).
  const knownInputs = new Map<OpenAIToolCall, JsonValue>();
  const projector = options.onDisplayMessage ? createProjector(options, knownInputs) : undefined;
  const pending = new PendingToolCalls();
  const drafts = new OpenDrafts(closeDraft);
  let session: AgentSessionInfo | undefined;
  // The session's `providerMetadata`, made once per session rather than once per message.
  let sessionMetadata: ProviderMetadata | undefined;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  // A callback that threw inside the timer has no caller to reach: the next push or end throws it.
  let timerFailure: { error: unknown } | undefined;

  function emit(message: ConversationMessage) {
    options.onLogMessage(message);
    if (projector === undefined || options.onDisplayMessage === undefined) return;
    for (const shown of projector.push(message)) options.onDisplayMessage(shown);
  }

  function closeDraft(draft: AssistantMessageDraft) {
    if (draft.isEmpty) return;
    const calls = draft.toolCalls(projector === undefined ? undefined : knownInputs);
    const message = assistantMessage(draft, calls, draft.liveId ?? generateId());
    try {
      emit(message);
    } finally {
      knownInputs.clear();
    }
    // Calls that only streamed input (no `tool_use` came) start waiting now.
    for (const call of calls) if (!draft.hasToolUse(call.id)) wait(call.id, call.function.name);
  }

  // The log message of a draft (also the base of its live display, without `calls`).
  function assistantMessage(
    draft: AssistantMessageDraft,
    calls: OpenAIToolCall[] | undefined,
    id: string,
  ): ConversationMessage {
    const reasoning = draft.reasoning();
    const message: ConversationMessage = withFields({
      id,
      role: 'assistant',
      createdAt: draft.timestamp,
      content: draft.content(),
    });
    if (calls !== undefined && calls.length > 0) {
      message.tool_calls = calls;
      message.partType = 'tool_call';
    }
    if (reasoning !== undefined && reasoning.length > 0) message.reasoning = reasoning;
    // A sub-agent's messages (Claude's Task) sit between the Task call and its result: shown, not replayed.
    if (draft.parentToolUseId !== undefined) message.includeInContext = false;
    if (session !== undefined) {
      sessionMetadata ??= agentSessionMetadata(session);
      message.providerMetadata = sessionMetadata;
    }
    return message;
  }

  // Call `callId` of `draft` started: its message so far and the call as running, shown at once.
  // Only what the display view shows of the message is made: its text and reasoning parts, not its
  // calls (the log builds those once, when the message closes).
  function showRunning(
    draft: AssistantMessageDraft,
    callId: string,
    show: (message: ConversationMessage) => void,
  ) {
    const call = draft.runningCall(callId);
    draft.liveId ??= generateId();
    const message = assistantMessage(draft, undefined, draft.liveId);
    const running =
      call === undefined
        ? undefined
        : runningExecutionMessage(callId, call.name, call.input, message, options.cwd ?? session?.cwd);
    if (message.reasoning === undefined) {
      // Text alone: the message without calls is its own text part (`splitAssistantMessage` would
      // copy it), shown when it has text, as for any message with calls.
      const { content } = message;
      if (typeof content === 'string' && content !== '' && draft.markShownLive(content, false)) show(message);
    } else {
      // Each part has text (`splitAssistantMessage` leaves out empty ones).
      for (const part of splitAssistantMessage(message, true))
        if (draft.markShownLive(part.content as string, part.partType === 'thinking')) show(part);
    }
    if (running !== undefined) show(running);
  }

  function wait(id: string, toolName: string) {
    pending.add({ id, toolName, startedAt: now() });
    armTimer();
  }

  function interrupt(calls: PendingToolCall[], reason: string) {
    const createdAt = new Date(now()).toISOString();
    for (const call of calls) {
      // The call's assistant message goes to the log before the result that answers it.
      drafts.closeHolding(call.id);
      pending.markInterrupted(call.id);
      emit(
        withFields({
          ...createInterruptedToolResult({
            id: generateId(),
            toolCallId: call.id,
            toolName: call.toolName,
            createdAt,
            reason,
          }),
        }),
      );
    }
  }

  // One timer for the oldest waiting call; unref'd so a forgotten processor never keeps a process up.
  function armTimer() {
    if (timer !== undefined || ended || !Number.isFinite(timeoutMs)) return;
    const oldest = pending.oldestStart();
    if (oldest === undefined) return;
    timer = setTimeout(onTimeout, Math.min(MAX_TIMER_DELAY_MS, Math.max(0, oldest + timeoutMs - now())));
    timer.unref();
  }

  function onTimeout() {
    timer = undefined;
    try {
      interrupt(pending.takeStartedBy(now() - timeoutMs), `no result after ${timeoutMs} ms`);
    } catch (error) {
      timerFailure ??= { error };
      return;
    }
    armTimer();
  }

  function toolResult(event: AgentOutputOf<'tool_result'>) {
    // Before the result: its call, whatever the sub-agent it started (Claude's Task) still had open
    // (closing that thread closes the message holding the call first), and its own thread's message.
    drafts.close(event.toolUseId);
    drafts.close(event.parentToolUseId);
    const call = pending.take(event.toolUseId);
    // A result after its call timed out: kept and shown, but the model already has the interrupted one.
    const late = call === undefined && pending.takeInterrupted(event.toolUseId);
    const toolName = event.toolName ?? call?.toolName;
    const duration =
      event.durationMs ?? (call === undefined ? undefined : Math.max(0, now() - call.startedAt));
    const message: ConversationMessage = withFields({
      id: generateId(),
      role: 'tool',
      createdAt: event.timestamp,
      tool_call_id: event.toolUseId,
      // Parts when the result holds an image or a file: the store moves their bytes to blobs.
      content: event.content ?? event.output,
      isError: event.isError,
      partType: 'tool_result',
    });
    if (event.structured !== undefined) message.structuredResult = compactStructuredResult(event.structured);
    if (toolName !== undefined) message.toolName = toolName;
    if (duration !== undefined) message.duration = duration;
    if (late || event.parentToolUseId !== undefined) message.includeInContext = false;
    emit(message);
  }

  function error(event: AgentOutputOf<'error'>) {
    // A skipped bad line leaves the messages being assembled open; a failure that ends the stream does not.
    if (event.fatal) drafts.closeAll();
    const message: ConversationMessage = withFields({
      id: generateId(),
      role: 'assistant',
      createdAt: event.timestamp,
      content: event.message,
      partType: 'error',
      errorCode: event.code,
    });
    // Only a failure that ended the stream is for the model; a skipped line is kept for the record.
    if (!event.fatal) message.includeInContext = false;
    emit(message);
  }

  function userMessage(event: AgentOutputOf<'user_message'>) {
    drafts.close(event.parentToolUseId);
    const message: ConversationMessage = withFields({
      id: generateId(),
      role: 'user',
      createdAt: event.timestamp,
      content: event.content ?? event.text,
    });
    // A sub-agent's prompt sits between the Task call and its result, like its other messages.
    if (event.parentToolUseId !== undefined) message.includeInContext = false;
    emit(message);
  }

  function handle(event: AgentOutput) {
    switch (event.type) {
      case 'text_delta':
        return drafts.for(event).addTextDelta(event.id, event.delta);
      case 'text':
        return drafts.for(event).closeText(event.id, event.text);
      case 'reasoning_delta':
        return drafts.for(event).addReasoningDelta(event.id, event.delta);
      case 'reasoning':
        return drafts.for(event).closeReasoning(event);
      case 'tool_input_delta':
        return drafts.for(event).addToolInputDelta(event);
      case 'tool_use': {
        const draft = drafts.for(event);
        draft.addToolUse(event);
        wait(event.id, event.toolName);
        if (options.onLiveDisplayMessage !== undefined)
          showRunning(draft, event.id, options.onLiveDisplayMessage);
        return;
      }
      case 'tool_result':
        return toolResult(event);
      case 'user_message':
        return userMessage(event);
      case 'error':
        return error(event);
      case 'session_start':
        drafts.closeAll();
        session = sessionOf(event, options.cwd);
        sessionMetadata = undefined;
        return;
      case 'finish':
        return drafts.close(event.parentToolUseId);
      case 'session_result':
        return drafts.closeAll();
      // Usage and unrecognised input are not conversation messages (the raw transcript keeps them).
      case 'usage':
      case 'unknown':
        return;
    }
  }

  function rethrowTimerFailure() {
    if (timerFailure === undefined) return;
    const { error: failure } = timerFailure;
    timerFailure = undefined;
    throw failure;
  }

  return {
    get pendingToolCalls() {
      return pending.size;
    },
    push(event) {
      if (ended) throw new CairnError('INVALID_ARGUMENT', 'the message processor has ended');
      rethrowTimerFailure();
      handle(event);
    },
    end(reason = 'the agent stopped before the tool returned') {
      if (ended) return;
      ended = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      rethrowTimerFailure();
      drafts.closeAll();
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
    ...definedFields({ sessionId: event.sessionId, cwd: sessionCwd }),
  };
}

/**
 * Adds `fields` to a new message, as spreading them last into its literal would (same keys, same
 * order, same values), without the spread's copy when there are none.
 */
// The session fields are read once, when the processor is made, and set on each log message.
function fieldsAdder(fields: MessageFields): (message: ConversationMessage) => ConversationMessage {
  const { mode, runId, agentId } = fields;
  if (mode === undefined && runId === undefined && agentId === undefined) return (message) => message;
  return (message) => {
    if (mode !== undefined) message.mode = mode;
    if (runId !== undefined) message.runId = runId;
    if (agentId !== undefined) message.agentId = agentId;
    return message;
  };
}
