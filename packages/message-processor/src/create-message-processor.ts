import {
  type AgentOutput,
  type AgentOutputOf,
  CairnError,
  type ConversationMessage,
  compactStructuredResult,
  createInterruptedToolResult,
  createMessageIds,
  type JsonValue,
  type OpenAIToolCall,
  type ProviderMetadata,
} from '@cairn/core';
import {
  type AgentSessionInfo,
  agentSessionMetadata,
  agentSessionOfStart,
} from './agent-session-metadata.js';
import type { AssistantMessageDraft } from './assistant-message-draft.js';
import { createProjector, type DisplayProjector, splitAssistantMessage } from './create-display-projector.js';
import { fieldsAdder } from './message-fields.js';
import {
  DEFAULT_PENDING_TIMEOUT_MS,
  type MessageProcessor,
  type MessageProcessorOptions,
} from './message-processor-options.js';
import { OpenDrafts } from './open-drafts.js';
import { type PendingToolCall, PendingToolCalls } from './pending-tool-calls.js';
import { runningExecutionMessage } from './tool-execution-message.js';

// Node runs a longer setTimeout after 1 ms instead; a longer wait is taken in steps.
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

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
  return new LogMessageProcessor(options, timeoutMs);
}

// A class rather than closures made per processor (as the converters are): its methods exist once,
// so their optimized code outlives each processor instead of being compiled again for the next one.
class LogMessageProcessor implements MessageProcessor {
  private readonly now: () => number;
  private readonly generateId: () => string;
  private readonly withFields: (message: ConversationMessage) => ConversationMessage;
  // The inputs of the calls of the message being emitted, for the projector (see `createProjector`).
  private readonly knownInputs = new Map<OpenAIToolCall, JsonValue>();
  private readonly projector: DisplayProjector | undefined;
  private readonly pending = new PendingToolCalls();
  private readonly drafts = new OpenDrafts(this);
  private session: AgentSessionInfo | undefined;
  // The session's `providerMetadata`, made once per session rather than once per message.
  private sessionMetadata: ProviderMetadata | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  // A callback that threw inside the timer has no caller to reach: the next push or end throws it.
  private timerFailure: { error: unknown } | undefined;

  constructor(
    private readonly options: MessageProcessorOptions,
    private readonly timeoutMs: number,
  ) {
    this.now = options.now ?? Date.now;
    this.generateId = options.generateId ?? createMessageIds();
    this.withFields = fieldsAdder(options.messageFields ?? {});
    this.projector = options.onDisplayMessage ? createProjector(options, this.knownInputs) : undefined;
  }

  // The options' clock and id source, called as plain functions (not as methods of the processor).
  private time(): number {
    const { now } = this;
    return now();
  }

  private newId(): string {
    const { generateId } = this;
    return generateId();
  }

  get pendingToolCalls(): number {
    return this.pending.size;
  }

  push(event: AgentOutput): void {
    if (this.ended) throw new CairnError('INVALID_ARGUMENT', 'the message processor has ended');
    if (this.timerFailure !== undefined) this.rethrowTimerFailure();
    this.handle(event);
  }

  end(reason = 'the agent stopped before the tool returned'): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.rethrowTimerFailure();
    this.drafts.closeAll();
    this.interrupt(this.pending.takeStartedBy(), reason);
    const { projector } = this;
    const onDisplayMessage = this.options.onDisplayMessage;
    if (projector === undefined || onDisplayMessage === undefined) return;
    for (const shown of projector.end()) onDisplayMessage(shown);
  }

  private emit(message: ConversationMessage): void {
    const { options, projector } = this;
    options.onLogMessage(message);
    const onDisplayMessage = options.onDisplayMessage;
    if (projector === undefined || onDisplayMessage === undefined) return;
    const shown = projector.push(message);
    for (let index = 0; index < shown.length; index++) onDisplayMessage(shown[index] as ConversationMessage);
  }

  /** The draft's message goes to the log (`OpenDrafts` calls this when it closes one). */
  closeDraft(draft: AssistantMessageDraft): void {
    const content = draft.content();
    if (draft.isEmptyWith(content)) return;
    const calls = draft.toolCalls(this.projector === undefined ? undefined : this.knownInputs);
    const message = this.assistantMessage(draft, content, calls, draft.liveId ?? this.newId());
    try {
      this.emit(message);
    } finally {
      this.knownInputs.clear();
    }
    // Calls that only streamed input (no `tool_use` came) start waiting now.
    for (const call of calls) if (!draft.hasToolUse(call.id)) this.wait(call.id, call.function.name);
  }

  // The log message of a draft (also the base of its live display, without `calls`).
  private assistantMessage(
    draft: AssistantMessageDraft,
    content: string | null,
    calls: OpenAIToolCall[] | undefined,
    id: string,
  ): ConversationMessage {
    const reasoning = draft.reasoning();
    const message: ConversationMessage = this.withFields({
      id,
      role: 'assistant',
      createdAt: draft.timestamp,
      content,
    });
    if (calls !== undefined && calls.length > 0) {
      message.tool_calls = calls;
      message.partType = 'tool_call';
    }
    if (reasoning !== undefined && reasoning.length > 0) message.reasoning = reasoning;
    // A sub-agent's messages (Claude's Task) sit between the Task call and its result: shown, not replayed.
    if (draft.parentToolUseId !== undefined) message.includeInContext = false;
    if (this.session !== undefined) {
      this.sessionMetadata ??= agentSessionMetadata(this.session);
      message.providerMetadata = this.sessionMetadata;
    }
    return message;
  }

  // Call `callId` of `draft` started: its message so far and the call as running, shown at once.
  // Only what the display view shows of the message is made: its text and reasoning parts, not its
  // calls (the log builds those once, when the message closes).
  private showRunning(
    draft: AssistantMessageDraft,
    callId: string,
    show: (message: ConversationMessage) => void,
  ): void {
    const call = draft.runningCall(callId);
    draft.liveId ??= this.newId();
    const message = this.assistantMessage(draft, draft.content(), undefined, draft.liveId);
    const running =
      call === undefined
        ? undefined
        : runningExecutionMessage(
            callId,
            call.name,
            call.input,
            message,
            this.options.cwd ?? this.session?.cwd,
          );
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

  private wait(id: string, toolName: string): void {
    this.pending.add({ id, toolName, startedAt: this.time() });
    this.armTimer();
  }

  private interrupt(calls: PendingToolCall[], reason: string): void {
    const createdAt = new Date(this.time()).toISOString();
    for (const call of calls) {
      // The call's assistant message goes to the log before the result that answers it.
      this.drafts.closeHolding(call.id);
      this.pending.markInterrupted(call.id);
      this.emit(
        this.withFields({
          ...createInterruptedToolResult({
            id: this.newId(),
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
  private armTimer(): void {
    if (this.timer !== undefined || this.ended || !Number.isFinite(this.timeoutMs)) return;
    const oldest = this.pending.oldestStart();
    if (oldest === undefined) return;
    const delay = Math.min(MAX_TIMER_DELAY_MS, Math.max(0, oldest + this.timeoutMs - this.time()));
    this.timer = setTimeout(() => this.onTimeout(), delay);
    this.timer.unref();
  }

  private onTimeout(): void {
    this.timer = undefined;
    try {
      const { timeoutMs } = this;
      this.interrupt(this.pending.takeStartedBy(this.time() - timeoutMs), `no result after ${timeoutMs} ms`);
    } catch (error) {
      this.timerFailure ??= { error };
      return;
    }
    this.armTimer();
  }

  private toolResult(event: AgentOutputOf<'tool_result'>): void {
    // Before the result: its call, whatever the sub-agent it started (Claude's Task) still had open
    // (closing that thread closes the message holding the call first), and its own thread's message.
    this.drafts.close(event.toolUseId);
    this.drafts.close(event.parentToolUseId);
    const call = this.pending.take(event.toolUseId);
    // A result after its call timed out: kept and shown, but the model already has the interrupted one.
    const late = call === undefined && this.pending.takeInterrupted(event.toolUseId);
    const toolName = event.toolName ?? call?.toolName;
    const duration =
      event.durationMs ?? (call === undefined ? undefined : Math.max(0, this.time() - call.startedAt));
    const message: ConversationMessage = this.withFields({
      id: this.newId(),
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
    this.emit(message);
  }

  private error(event: AgentOutputOf<'error'>): void {
    // A skipped bad line leaves the messages being assembled open; a failure that ends the stream does not.
    if (event.fatal) this.drafts.closeAll();
    const message: ConversationMessage = this.withFields({
      id: this.newId(),
      role: 'assistant',
      createdAt: event.timestamp,
      content: event.message,
      partType: 'error',
      errorCode: event.code,
    });
    // Only a failure that ended the stream is for the model; a skipped line is kept for the record.
    if (!event.fatal) message.includeInContext = false;
    this.emit(message);
  }

  private userMessage(event: AgentOutputOf<'user_message'>): void {
    this.drafts.close(event.parentToolUseId);
    const message: ConversationMessage = this.withFields({
      id: this.newId(),
      role: 'user',
      createdAt: event.timestamp,
      content: event.content ?? event.text,
    });
    // A sub-agent's prompt sits between the Task call and its result, like its other messages.
    if (event.parentToolUseId !== undefined) message.includeInContext = false;
    this.emit(message);
  }

  private handle(event: AgentOutput) {
    switch (event.type) {
      case 'text_delta':
        return this.drafts.for(event).addTextDelta(event.id, event.delta);
      case 'text':
        return this.drafts.for(event).closeText(event.id, event.text);
      case 'reasoning_delta':
        return this.drafts.for(event).addReasoningDelta(event.id, event.delta);
      case 'reasoning':
        return this.drafts.for(event).closeReasoning(event);
      case 'tool_input_delta':
        return this.drafts.for(event).addToolInputDelta(event);
      case 'tool_use': {
        const draft = this.drafts.for(event);
        draft.addToolUse(event);
        this.wait(event.id, event.toolName);
        const show = this.options.onLiveDisplayMessage;
        if (show !== undefined) this.showRunning(draft, event.id, show);
        return;
      }
      case 'tool_result':
        return this.toolResult(event);
      case 'user_message':
        return this.userMessage(event);
      case 'error':
        return this.error(event);
      case 'session_start':
        this.drafts.closeAll();
        this.session = agentSessionOfStart(event, this.options.cwd);
        this.sessionMetadata = undefined;
        return;
      case 'finish':
        return this.drafts.close(event.parentToolUseId);
      case 'session_result':
        return this.drafts.closeAll();
      // Usage and unrecognised input are not conversation messages (the raw transcript keeps them).
      case 'usage':
      case 'unknown':
        return;
    }
  }

  private rethrowTimerFailure(): void {
    const { timerFailure } = this;
    if (timerFailure === undefined) return;
    this.timerFailure = undefined;
    throw timerFailure.error;
  }
}
