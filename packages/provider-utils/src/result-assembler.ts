import {
  type AgentOutput,
  CairnError,
  type DefinedFields,
  definedFields,
  type FinishReason,
  type JsonValue,
  type ModelAssistantMessage,
  type ModelResult,
  type OpenAIToolCall,
  type ProviderMetadata,
  type ReasoningPart,
  type TokenUsage,
} from '@cairn/core';
import type { ReasoningEndInfo, StreamSink, StreamStartInfo, ToolCallEndInfo } from './stream-sink.js';

export interface ResultAssemblerOptions {
  /** The clock behind every event's `timestamp` (default: the system clock). */
  now?: () => Date;
  /** Receives each `AgentOutput` event as it is produced; a non-streaming call can leave it out. */
  onEvent?: (event: AgentOutput) => void;
  /** The provider, named as the `source` of `unknown` events. */
  source?: string;
}

/**
 * Builds the `ModelResult` (and, while streaming, the `AgentOutput` events) from what an adapter
 * reports through the `StreamSink` methods. `generate` and `stream` both use it, so a response
 * gives the same assistant message whichever way it was requested.
 */
export interface ResultAssembler extends StreamSink {
  /** What `finish` reported so far, if anything. */
  readonly finishReason: FinishReason | undefined;
  /**
   * Ends the call: closes every open block (tool calls included), emits `usage` and `finish`, and
   * returns the result. Throws `LLM_BAD_RESPONSE` when no finish reason was reported.
   */
  complete(): ModelResult;
  /**
   * Ends the call as failed: closes open text and reasoning blocks, drops tool calls that never
   * ended, emits `usage`, a fatal `error` and `finish` (`aborted` for `LLM_ABORTED`, else `error`).
   */
  fail(error: CairnError): void;
}

/** A new assembler for one model call; every sink call after `complete`/`fail` is ignored. */
export function createResultAssembler(options: ResultAssemblerOptions = {}): ResultAssembler {
  return new Assembler(options.now ?? (() => new Date()), options.onEvent, options.source);
}

type EventBody = AgentOutput extends infer E ? (E extends AgentOutput ? Omit<E, 'timestamp'> : never) : never;

interface Block {
  kind: 'text' | 'reasoning';
  id: string;
  text: string;
  open: boolean;
  redacted?: boolean;
  providerMetadata?: ProviderMetadata;
}

interface ToolCall {
  id: string;
  toolName: string;
  arguments: string;
  open: boolean;
  providerMetadata?: ProviderMetadata;
}

class Assembler implements ResultAssembler {
  finishReason: FinishReason | undefined;
  private rawFinishReason: string | undefined;
  private info: DefinedFields<StreamStartInfo> = {};
  private readonly blocks: Block[] = [];
  private readonly openBlocks = new Map<string, Block>();
  private readonly toolCalls = new Map<string, ToolCall>();
  private lastUsage: TokenUsage | undefined;
  private providerMetadata: ProviderMetadata = {};
  private done = false;

  constructor(
    private readonly now: () => Date,
    private readonly onEvent: ((event: AgentOutput) => void) | undefined,
    private readonly source: string | undefined,
  ) {}

  start(info: StreamStartInfo): void {
    if (this.done) return;
    this.info = { ...this.info, ...definedFields(info) };
  }

  textDelta(blockKey: string, delta: string): void {
    this.blockDelta('text', blockKey, delta);
  }

  textEnd(blockKey: string): void {
    if (this.done) return;
    const block = this.openBlocks.get(`text:${blockKey}`);
    if (block !== undefined) this.closeBlock(`text:${blockKey}`, block);
  }

  reasoningDelta(blockKey: string, delta: string): void {
    this.blockDelta('reasoning', blockKey, delta);
  }

  reasoningEnd(blockKey: string, info: ReasoningEndInfo = {}): void {
    if (this.done) return;
    const key = `reasoning:${blockKey}`;
    const block = this.openBlocks.get(key) ?? this.openBlock('reasoning', key);
    if (info.redacted !== undefined) block.redacted = info.redacted;
    if (info.providerMetadata !== undefined) block.providerMetadata = info.providerMetadata;
    this.closeBlock(key, block);
  }

  toolCallStart(id: string, toolName: string): void {
    if (this.done) return;
    this.refuseAfterFinish(`tool call ${id} (${toolName})`);
    if (this.toolCalls.has(id)) throw badResponse(`the response started tool call ${id} twice`);
    this.toolCalls.set(id, { id, toolName, arguments: '', open: true });
  }

  toolInputDelta(id: string, delta: string): void {
    if (this.done || delta === '') return;
    this.refuseAfterFinish(`a tool input delta for ${id}`);
    const call = this.openToolCall(id);
    call.arguments += delta;
    this.emit({ type: 'tool_input_delta', id, toolName: call.toolName, delta });
  }

  toolCallEnd(id: string, info: ToolCallEndInfo = {}): void {
    if (this.done) return;
    const call = this.openToolCall(id);
    if (info.arguments !== undefined) call.arguments = info.arguments;
    if (info.providerMetadata !== undefined) call.providerMetadata = info.providerMetadata;
    this.closeToolCall(call);
  }

  usage(usage: TokenUsage): void {
    if (!this.done) this.lastUsage = usage;
  }

  metadata(metadata: ProviderMetadata): void {
    if (!this.done) this.providerMetadata = mergeProviderMetadata(this.providerMetadata, metadata);
  }

  unknown(raw: JsonValue): void {
    if (!this.done) this.emit({ type: 'unknown', raw, ...definedFields({ source: this.source }) });
  }

  finish(reason: FinishReason, rawReason?: string): void {
    if (this.done) return;
    this.refuseAfterFinish(`a second finish '${rawReason ?? reason}'`);
    this.finishReason = reason;
    this.rawFinishReason = rawReason;
  }

  complete(): ModelResult {
    if (this.finishReason === undefined) throw badResponse('the response ended without a finish reason');
    this.closeOpenBlocks();
    for (const call of this.toolCalls.values()) if (call.open) this.closeToolCall(call);
    this.done = true;
    const message = this.buildMessage();
    const finishReason = reconcileFinishReason(this.finishReason, message.tool_calls !== undefined);
    const usage = this.lastUsage ?? { inputTokens: 0, outputTokens: 0 };
    if (this.lastUsage !== undefined) this.emit({ type: 'usage', usage });
    this.emit({
      type: 'finish',
      reason: finishReason,
      ...definedFields({ rawReason: this.rawFinishReason }),
    });
    return {
      message,
      usage,
      finishReason,
      ...definedFields({ rawFinishReason: this.rawFinishReason }),
      ...this.info,
    };
  }

  fail(error: CairnError): void {
    if (this.done) return;
    this.closeOpenBlocks();
    this.done = true;
    if (this.lastUsage !== undefined) this.emit({ type: 'usage', usage: this.lastUsage });
    const raw = error.details?.raw;
    this.emit({
      type: 'error',
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...definedFields({ retryAfterMs: error.retryAfterMs }),
      fatal: true,
      ...(typeof raw === 'string' ? { raw } : {}),
    });
    this.emit({ type: 'finish', reason: error.code === 'LLM_ABORTED' ? 'aborted' : 'error' });
  }

  /**
   * Content or a second finish after the provider's finish means the adapter misread the stream
   * (or the API broke its own protocol): fail loudly rather than drop or mis-attribute it. Usage,
   * metadata and unknown events may still follow a finish (OpenAI's trailing usage chunk).
   */
  private refuseAfterFinish(what: string): void {
    if (this.finishReason === undefined) return;
    throw badResponse(
      `the response sent ${what} after its finish '${this.rawFinishReason ?? this.finishReason}'`,
    );
  }

  private blockDelta(kind: Block['kind'], blockKey: string, delta: string): void {
    if (this.done || delta === '') return;
    this.refuseAfterFinish(`a ${kind} delta`);
    const key = `${kind}:${blockKey}`;
    const block = this.openBlocks.get(key) ?? this.openBlock(kind, key);
    block.text += delta;
    this.emit({ type: kind === 'text' ? 'text_delta' : 'reasoning_delta', id: block.id, delta });
  }

  private openBlock(kind: Block['kind'], key: string): Block {
    // Ids count blocks in the order they opened: stable for a given response.
    const block: Block = { kind, id: `${kind}-${this.blocks.length}`, text: '', open: true };
    this.blocks.push(block);
    this.openBlocks.set(key, block);
    return block;
  }

  private closeBlock(key: string, block: Block): void {
    this.openBlocks.delete(key);
    block.open = false;
    if (block.kind === 'text') {
      this.emit({ type: 'text', id: block.id, text: block.text });
      return;
    }
    this.emit({
      type: 'reasoning',
      id: block.id,
      text: block.text,
      ...definedFields({ redacted: block.redacted, providerMetadata: block.providerMetadata }),
    });
  }

  private closeOpenBlocks(): void {
    for (const [key, block] of [...this.openBlocks]) this.closeBlock(key, block);
  }

  private openToolCall(id: string): ToolCall {
    const call = this.toolCalls.get(id);
    if (call === undefined) throw badResponse(`the response continued tool call ${id} before starting it`);
    if (!call.open) throw badResponse(`the response continued tool call ${id} after it ended`);
    return call;
  }

  private closeToolCall(call: ToolCall): void {
    call.open = false;
    // A tool without parameters often streams no arguments at all; providers expect an object.
    if (call.arguments.trim() === '') call.arguments = '{}';
    const input = parseArguments(call.arguments);
    this.emit({
      type: 'tool_use',
      id: call.id,
      toolName: call.toolName,
      input,
      // The model's own text of the input; arguments that are not JSON are the input itself.
      ...(typeof input === 'string' ? {} : { inputText: call.arguments }),
      ...definedFields({ providerMetadata: call.providerMetadata }),
    });
  }

  private buildMessage(): ModelAssistantMessage {
    const text = this.blocks
      .filter((block) => block.kind === 'text')
      .map((block) => block.text)
      .join('');
    const toolCalls: OpenAIToolCall[] = [];
    let providerMetadata = this.providerMetadata;
    for (const call of this.toolCalls.values()) {
      toolCalls.push({
        id: call.id,
        type: 'function',
        function: { name: call.toolName, arguments: call.arguments },
      });
      if (call.providerMetadata !== undefined) {
        providerMetadata = mergeProviderMetadata(providerMetadata, keyedBy(call.id, call.providerMetadata));
      }
    }
    const reasoning: ReasoningPart[] = this.blocks
      .filter((block) => block.kind === 'reasoning')
      .map((block) => ({
        text: block.text,
        ...definedFields({ redacted: block.redacted, providerMetadata: block.providerMetadata }),
      }));
    return {
      role: 'assistant',
      // An assistant message needs content or tool calls: '' stands for an empty reply.
      content: text !== '' ? text : toolCalls.length > 0 ? null : '',
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      ...(reasoning.length > 0 ? { reasoning } : {}),
      ...(Object.keys(providerMetadata).length > 0 ? { providerMetadata } : {}),
    };
  }

  private emit(body: EventBody): void {
    if (this.onEvent === undefined) return;
    const messageId = this.info.responseId;
    this.onEvent({
      ...body,
      timestamp: this.now().toISOString(),
      ...definedFields({ messageId }),
    } as AgentOutput);
  }
}

/**
 * `tool_calls` exactly when the message carries tool calls, whatever the provider said (Gemini says
 * STOP for function calls; a call cut by the token limit says `length`): the raw reason keeps it.
 */
function reconcileFinishReason(reason: FinishReason, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  return reason === 'tool_calls' ? 'stop' : reason;
}

function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function mergeProviderMetadata(base: ProviderMetadata, extra: ProviderMetadata): ProviderMetadata {
  const merged: ProviderMetadata = { ...base };
  for (const [namespace, values] of Object.entries(extra))
    merged[namespace] = { ...merged[namespace], ...values };
  return merged;
}

/** `{ gemini: { thoughtSignature } }` of call `id` → `{ gemini: { [id]: { thoughtSignature } } }`. */
function keyedBy(id: string, metadata: ProviderMetadata): ProviderMetadata {
  return Object.fromEntries(
    Object.entries(metadata).map(([namespace, values]) => [namespace, { [id]: values }]),
  );
}

function badResponse(message: string): CairnError {
  return new CairnError('LLM_BAD_RESPONSE', message);
}
