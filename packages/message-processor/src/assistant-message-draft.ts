import {
  type AgentOutput,
  type AgentOutputOf,
  type JsonValue,
  MAX_TOOL_INPUT_DEPTH,
  type OpenAIToolCall,
  type ProviderMetadata,
  type ReasoningPart,
  truncateDeepJson,
} from '@cairn/core';
import { parseToolArguments } from './parse-tool-arguments.js';

// The name of a call whose name never came (only streamed input without one).
const UNKNOWN_TOOL = 'unknown_tool';

// Text and reasoning blocks grow from deltas; the closing event's full text replaces what the
// deltas built (it is authoritative), and a block cut off before it keeps what arrived.
interface Block {
  text: string;
  redacted?: boolean;
  providerMetadata?: ProviderMetadata;
}

interface CallDraft {
  id: string;
  name: string;
  /** JSON argument text: streamed deltas, then the `tool_use` input. */
  arguments: string;
  /** A `tool_use` announced the call (not only streamed input). */
  announced?: boolean;
  /** The `tool_use` input, when `arguments` is the producer's own text of it. */
  input?: JsonValue;
  /** The `tool_use` input as logged (cut when too deep), for the live display: not parsed again. */
  value?: JsonValue;
}

/**
 * One assistant message being assembled from events that share a `messageId` (or arrive in a run
 * without one): its text blocks, reasoning blocks and tool calls, each in first-seen order.
 */
export class AssistantMessageDraft {
  readonly messageId: string | undefined;
  readonly timestamp: string;
  readonly parentToolUseId: string | undefined;
  private readonly texts = new Map<string, Block>();
  // Most messages have no reasoning: its map is made on the first block.
  private reasonings: Map<string, Block> | undefined;
  private readonly calls = new Map<string, CallDraft>();
  /** The log message's id, chosen when the message is first shown live (so the log keeps it). */
  liveId: string | undefined;
  // What the live display last showed of the message's two display parts, its text and its
  // reasoning (two fields, not a map per message: this runs for every call shown running).
  private shownText: string | undefined;
  private shownThinking: string | undefined;

  constructor(first: AgentOutput) {
    this.messageId = first.messageId;
    this.timestamp = first.timestamp;
    this.parentToolUseId = first.parentToolUseId;
  }

  addTextDelta(id: string, delta: string): void {
    appendTo(this.texts, id, delta);
  }

  closeText(id: string, text: string): void {
    this.texts.set(id, { text });
  }

  addReasoningDelta(id: string, delta: string): void {
    this.reasonings ??= new Map();
    appendTo(this.reasonings, id, delta);
  }

  closeReasoning(event: AgentOutputOf<'reasoning'>): void {
    this.reasonings ??= new Map();
    // Built field by field (a spread before more fields is slow in V8), in the order of
    // `{ text, ...(redacted ? { redacted } : {}), ...(providerMetadata ? { providerMetadata } : {}) }`.
    const block: Block = { text: event.text };
    if (event.redacted) block.redacted = true;
    if (event.providerMetadata) block.providerMetadata = event.providerMetadata;
    this.reasonings.set(event.id, block);
  }

  addToolInputDelta(event: AgentOutputOf<'tool_input_delta'>): void {
    const call = this.calls.get(event.id);
    if (call) call.arguments += event.delta;
    else this.calls.set(event.id, { id: event.id, name: event.toolName ?? '', arguments: event.delta });
  }

  /**
   * Records a whole call; its input (or the text it came as) replaces any streamed argument text.
   * An input nested deeper than `MAX_TOOL_INPUT_DEPTH` is logged cut there, each cut value replaced
   * by a marker string (see `truncateDeepJson`): serialising it whole would overflow the stack.
   */
  addToolUse(event: AgentOutputOf<'tool_use'>): void {
    const { input } = event;
    const bounded = typeof input === 'string' ? undefined : truncateDeepJson(input, MAX_TOOL_INPUT_DEPTH);
    const kept = bounded?.truncated === true ? undefined : event.inputText;
    // The model's own text when the producer kept it; else the (bounded) input, serialised.
    const args = kept ?? (typeof input === 'string' ? input : JSON.stringify(bounded?.value));
    // The input object is shown as is only when the logged text is the producer's own (it parses to
    // that object); otherwise the display parses the logged text, as a reloaded log does.
    const call: CallDraft = { id: event.id, name: event.toolName, arguments: args, announced: true };
    if (kept !== undefined) call.input = input;
    if (bounded !== undefined) call.value = bounded.value;
    this.calls.set(event.id, call);
  }

  /**
   * Call `id` as the live display shows it while it runs: its name and its input as the log's
   * display view will read it (the `tool_use` input as logged, else its argument text parsed).
   * Only this call is looked at: the message's other calls are not built again for it.
   */
  runningCall(id: string): { name: string; input: JsonValue } | undefined {
    const call = this.calls.get(id);
    if (call === undefined) return undefined;
    return { name: call.name || UNKNOWN_TOOL, input: call.value ?? parseToolArguments(call.arguments) };
  }

  /**
   * Records that the text part (the reasoning part when `thinking`) is shown live with `content`;
   * false when it already was.
   */
  markShownLive(content: string, thinking: boolean): boolean {
    if ((thinking ? this.shownThinking : this.shownText) === content) return false;
    if (thinking) this.shownThinking = content;
    else this.shownText = content;
    return true;
  }

  hasCall(id: string): boolean {
    return this.calls.has(id);
  }

  /** Whether call `id` was announced by a `tool_use` (not only streamed input). */
  hasToolUse(id: string): boolean {
    return this.calls.get(id)?.announced === true;
  }

  /**
   * Calls whose input is still streaming when the message closes keep the partial JSON text. The
   * inputs known as objects go in `knownInputs` when given (for the processor's own display).
   */
  toolCalls(knownInputs?: Map<OpenAIToolCall, JsonValue>): OpenAIToolCall[] {
    const calls: OpenAIToolCall[] = [];
    for (const draft of this.calls.values()) {
      const call: OpenAIToolCall = {
        id: draft.id,
        type: 'function',
        function: { name: draft.name || UNKNOWN_TOOL, arguments: draft.arguments },
      };
      if (draft.input !== undefined && typeof draft.input !== 'string') {
        knownInputs?.set(call, draft.input);
      }
      calls.push(call);
    }
    return calls;
  }

  /** The text blocks, joined; `null` when there were none (a message of tool calls only). */
  content(): string | null {
    if (this.texts.size === 0) return null;
    let text = '';
    for (const block of this.texts.values()) {
      if (block.text === '') continue;
      text = text === '' ? block.text : `${text}\n\n${block.text}`;
    }
    return text;
  }

  /** The reasoning blocks; undefined when there were none. */
  reasoning(): ReasoningPart[] | undefined {
    return this.reasonings === undefined ? undefined : Array.from(this.reasonings.values());
  }

  /** Whether the message has nothing to log, `content` being its `content()`. */
  isEmptyWith(content: string | null): boolean {
    return this.calls.size === 0 && this.reasonings === undefined && (content ?? '') === '';
  }
}

function appendTo(blocks: Map<string, Block>, id: string, delta: string): void {
  const block = blocks.get(id);
  if (block) block.text += delta;
  else blocks.set(id, { text: delta });
}
