import type { ConversationMessage, JsonValue, OpenAIToolCall } from '@cairn/core';
import { readAgentSession } from './agent-session-metadata.js';
import { toolArgumentsOf } from './parse-tool-arguments.js';
import { addContextFields, type CallLedgerState, executionMessage } from './tool-execution-message.js';
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
  /**
   * The display messages this log message adds (none while a tool call waits for its result). A
   * `tool_execution` whose id was shown before replaces that one: a result that came after its
   * call was shown as unfinished.
   */
  push(message: ConversationMessage): ConversationMessage[];
  /** Calls that never got a result, as unfinished executions. */
  end(): ConversationMessage[];
}

interface PendingCall {
  call: OpenAIToolCall;
  assistant: ConversationMessage;
  /** The call's arguments as JSON, read when the call arrives. */
  input: JsonValue;
  /** What the ledger's records said about it so far. */
  ledger?: CallLedgerState;
}

// How many interrupted calls are remembered for a late result (the processor remembers as many).
const REMEMBERED_INTERRUPTIONS = 1024;

function remember(calls: Map<string, PendingCall>, id: string, entry: PendingCall): void {
  calls.delete(id);
  calls.set(id, entry);
  if (calls.size > REMEMBERED_INTERRUPTIONS) calls.delete(calls.keys().next().value as string);
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
  return createProjector(options);
}

/**
 * `createDisplayProjector`, told the input of calls whose argument text was made from one by
 * `knownInputs` (the message processor's own projector), so it neither parses that text nor needs
 * the calls remembered in a WeakMap.
 */
export function createProjector(
  options: DisplayOptions,
  knownInputs?: ReadonlyMap<OpenAIToolCall, JsonValue>,
): DisplayProjector {
  if (options.merge === false) return { push: (message) => [{ ...message }], end: () => [] };
  return new MergingProjector(options, options.toolProcessors ?? builtInRegistry(), knownInputs);
}

// A class rather than closures made per projector: its methods, compiled once, serve every one.
class MergingProjector implements DisplayProjector {
  private readonly pending = new Map<string, PendingCall>();
  // Calls answered by an interrupted result, so a late real result updates their execution.
  private readonly interrupted = new Map<string, PendingCall>();
  // Approval request ids of waiting calls, to the call they ask about (a decision names the request).
  private readonly requests = new Map<string, string>();
  private cwd: string | undefined;
  // The session metadata last read, and its cwd: the processor gives one session's messages the same object.
  private sessionMetadata: ConversationMessage['providerMetadata'];
  private sessionCwd: string | undefined;

  constructor(
    private readonly options: DisplayOptions,
    private readonly registry: ToolProcessorRegistry,
    private readonly knownInputs: ReadonlyMap<OpenAIToolCall, JsonValue> | undefined,
  ) {
    this.cwd = options.cwd;
  }

  push(message: ConversationMessage): ConversationMessage[] {
    if (message.role === 'tool' && message.tool_call_id !== undefined)
      return this.toolResult(message, message.tool_call_id);
    if (message.role !== 'assistant') {
      if (message.approval !== undefined || message.toolIntent !== undefined)
        return this.ledgerRecord(message);
      return [{ ...message }];
    }
    if (this.options.cwd === undefined) {
      const metadata = message.providerMetadata;
      if (metadata === undefined || metadata !== this.sessionMetadata) {
        this.sessionMetadata = metadata;
        this.sessionCwd = readAgentSession(message)?.cwd;
      }
      this.cwd = this.sessionCwd ?? this.cwd;
    }
    const shown = splitAssistantMessage(message);
    const calls = message.tool_calls;
    if (calls === undefined) return shown;
    const { pending, knownInputs } = this;
    for (const call of calls) {
      // A reused id while the first call still waits: the first will never be matched, show it now.
      const earlier = pending.get(call.id);
      if (earlier !== undefined) shown.push(this.execution(earlier));
      const known = knownInputs?.get(call);
      pending.set(call.id, {
        call,
        assistant: message,
        input: known === undefined ? toolArgumentsOf(call) : known,
      });
    }
    return shown;
  }

  end(): ConversationMessage[] {
    // A call that still waits for a decision shows so; any other call without a result is unfinished.
    const unfinished = Array.from(this.pending.values(), (entry) => {
      if (entry.ledger?.status === 'running') entry.ledger = { ...entry.ledger, status: undefined };
      return this.execution(entry);
    });
    this.pending.clear();
    this.requests.clear();
    this.interrupted.clear();
    return unfinished;
  }

  private execution(entry: PendingCall, result?: ConversationMessage): ConversationMessage {
    return executionMessage(
      entry.call,
      entry.input,
      entry.assistant,
      result,
      this.registry,
      this.cwd,
      entry.ledger,
    );
  }

  // A ledger record updates its call's execution (awaiting approval, decided, running); one about a
  // call not waiting here (answered, or of another branch) shows nothing. Records are never shown.
  private ledgerRecord(message: ConversationMessage): ConversationMessage[] {
    const { approval, toolIntent } = message;
    const callId =
      approval?.kind === 'decision'
        ? this.requests.get(approval.requestId)
        : (approval ?? toolIntent)?.toolCallId;
    const entry = callId === undefined ? undefined : this.pending.get(callId);
    if (entry === undefined) return [];
    const ledger: CallLedgerState = { ...entry.ledger };
    if (approval?.kind === 'request') {
      if (approval.assistantMessageId !== entry.assistant.id) return [];
      this.requests.set(message.id, approval.toolCallId);
      ledger.approval = {
        id: message.id,
        askedOf: approval.askedOf,
        ...(approval.expiresAt === undefined ? {} : { expiresAt: approval.expiresAt }),
      };
      ledger.status = 'awaiting_approval';
    } else if (approval?.kind === 'decision' && ledger.approval !== undefined) {
      ledger.approval = {
        ...ledger.approval,
        outcome: approval.outcome,
        decidedBy: approval.decidedBy,
        decidedAt: approval.decidedAt,
        ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      };
      // What runs is what the person edited: the execution shows that input, not the model's.
      if (approval.outcome === 'edit' && approval.input !== undefined) entry.input = approval.input;
      // Approved, it runs next; otherwise its denial is the result that follows.
      ledger.status = approval.outcome === 'approve' || approval.outcome === 'edit' ? 'running' : undefined;
    } else if (toolIntent !== undefined) {
      if (toolIntent.assistantMessageId !== entry.assistant.id) return [];
      ledger.attempt = toolIntent.attempt;
      ledger.status = 'running';
    } else return [];
    entry.ledger = ledger;
    return [this.execution(entry)];
  }

  private toolResult(message: ConversationMessage, callId: string): ConversationMessage[] {
    const entry = this.pending.get(callId);
    if (entry !== undefined) {
      this.pending.delete(callId);
      if (message.interrupted) remember(this.interrupted, callId, entry);
      return [this.execution(entry, message)];
    }
    const timedOut = message.interrupted ? undefined : this.interrupted.get(callId);
    if (timedOut === undefined) return [{ ...message }];
    this.interrupted.delete(callId);
    // The same display id as the unfinished execution: a UI replaces that one with this.
    return [this.execution(timedOut, message)];
  }
}

// An assistant message's reasoning and text, as separate display messages; its calls come later.
// `hasCalls` when the message's calls were left off it (the live display's message so far).
export function splitAssistantMessage(
  message: ConversationMessage,
  hasCalls = message.tool_calls !== undefined,
): ConversationMessage[] {
  const shown: ConversationMessage[] = [];
  const { reasoning } = message;
  let thoughts = '';
  for (const part of reasoning ?? []) {
    if (part.redacted || part.text === '') continue;
    thoughts = thoughts === '' ? part.text : `${thoughts}\n\n${part.text}`;
  }
  if (thoughts !== '') {
    const thinking: ConversationMessage = {
      id: `${message.id}:thinking`,
      role: 'assistant',
      createdAt: message.createdAt,
      content: thoughts,
      partType: 'thinking',
    };
    addContextFields(thinking, message);
    shown.push(thinking);
  }
  const hasText = typeof message.content === 'string' && message.content !== '';
  // A message of only calls or only (redacted) reasoning has no text to show.
  if (hasText || (!hasCalls && reasoning === undefined)) shown.push(textPart(message));
  return shown;
}

// The message without its calls and reasoning; its text alone is plain content, not a `tool_call`.
function textPart(message: ConversationMessage): ConversationMessage {
  const text: Record<string, unknown> = {};
  for (const key in message) {
    if (key === 'tool_calls' || key === 'reasoning') continue;
    if (key === 'partType' && message.partType === 'tool_call') continue;
    text[key] = message[key as keyof ConversationMessage];
  }
  return text as ConversationMessage;
}
