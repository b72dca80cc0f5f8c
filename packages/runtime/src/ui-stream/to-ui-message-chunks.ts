import {
  type AgentOutput,
  type CairnError,
  type ConversationMessage,
  definedFields,
  type FinishReason,
  type TokenUsage,
} from '@cairn/core';
import type { ChatResult, RuntimeEvent } from '../runtime-types.js';
import { type ContinuedCall, continuedCallChunks } from './continued-calls.js';
import type { CairnUIMessageMetadata, UIFinishReason, UIMessageChunk } from './ui-message-chunk.js';

export interface UIMessageStreamOptions {
  /** The id of the answer's `UIMessage` (sent on `start`); the AI SDK client makes one when absent. */
  messageId?: string;
  /** Send reasoning parts. Default true. */
  sendReasoning?: boolean;
  /** Send `start` (false when this stream continues a message another stream began). Default true. */
  sendStart?: boolean;
  /** Send `finish`. Default true. */
  sendFinish?: boolean;
  /** The `errorText` of the `error` chunk. Default: `<code>: <message>`. */
  onError?: (error: CairnError) => string;
  /**
   * The tool calls of the message this stream continues (an AI SDK client that answered approvals
   * sends its message back, and the answer goes on in it): sent first as they stand, then their
   * outputs; a call whose approval was refused ends `tool-output-denied`.
   */
  continuing?: readonly ContinuedCall[];
}

/** How the turn ended, for the closing chunks. */
export interface UITurnOutcome {
  conversationId: string;
  finishReason: FinishReason;
  error?: CairnError;
  usage?: TokenUsage;
  /** `provider/modelId` of the model that answered. */
  model?: string;
}

const FINISH_REASONS: Record<FinishReason, UIFinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
  aborted: 'interrupted',
  error: 'error',
  other: 'other',
};

/**
 * How a `chat` result ended, for `end`; the model is the one that answered (a fallback model when
 * the primary failed), read from the stored answer, else `model`.
 */
export function uiTurnOutcome(result: ChatResult<unknown>, model?: string): UITurnOutcome {
  const answering = result.message?.providerMetadata?.cairn as
    | { provider?: unknown; model?: unknown }
    | undefined;
  const stored =
    typeof answering?.provider === 'string' && typeof answering.model === 'string'
      ? `${answering.provider}/${answering.model}`
      : undefined;
  return {
    conversationId: result.conversationId,
    finishReason: result.finishReason,
    usage: result.usage.total,
    ...definedFields({ model: stored ?? model, error: result.error }),
  };
}

/** The text of a stored answer (its text parts joined), `''` for none. */
export function answerText(message: ConversationMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** A stored assistant message that is an answer of the model (not a stored failure). */
export const isStoredAnswer = (message: ConversationMessage) =>
  message.role === 'assistant' && message.partType !== 'error';

const isBase64Source = (source: unknown): source is { type: 'base64'; data: string } =>
  typeof source === 'object' &&
  source !== null &&
  (source as { type?: unknown }).type === 'base64' &&
  typeof (source as { data?: unknown }).data === 'string';

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const defaultErrorText = (error: CairnError) => `${error.code}: ${error.message}`;

/**
 * Turns a turn's events (`AgentOutput` and runtime events) into AI SDK UI message chunks, one
 * event at a time: `push` for each event, `end` once with how the turn ended. Every sequence it
 * writes is valid for the AI SDK's reader whatever the events' order: a delta opens its part, a
 * step closes what it left open, a tool result only follows its call.
 */
export function createUIMessageChunkMapper(conversationId: string, options: UIMessageStreamOptions = {}) {
  const sendReasoning = options.sendReasoning ?? true;
  // Model calls are numbered into part ids: providers reuse block ids (`text-0`) call after call.
  let step = 0;
  let inStep = false;
  const openText = new Set<string>();
  const openReasoning = new Set<string>();
  // Calls whose `tool-input-start` was sent, and calls the message holds (their outputs may follow).
  const streamingInputs = new Set<string>();
  const knownCalls = new Set<string>();
  // Calls whose approval was refused (their result is sent as a denial), and the approval requests
  // sent, by id, with their call (a decision is sent only for a request the client was shown).
  const deniedCalls = new Set<string>();
  const requestedApprovals = new Map<string, string>();
  for (const call of options.continuing ?? []) {
    knownCalls.add(call.toolCallId);
    if (call.approval?.approved === false) deniedCalls.add(call.toolCallId);
  }
  let started = false;
  // Whether the model's events showed the answer being stored; a model that does not stream
  // emits none, and its stored answer is sent whole instead.
  let answerStreamed = false;

  const partId = (id: string) => `${step}-${id}`;

  function start(): UIMessageChunk[] {
    if (started) return [];
    started = true;
    const metadata: CairnUIMessageMetadata = { conversationId };
    const chunks: UIMessageChunk[] =
      options.sendStart === false
        ? []
        : [{ type: 'start', ...definedFields({ messageId: options.messageId }), messageMetadata: metadata }];
    return [...chunks, ...(options.continuing ?? []).flatMap(continuedCallChunks)];
  }

  function startStep(): UIMessageChunk[] {
    if (inStep) return [];
    inStep = true;
    return [{ type: 'start-step' }];
  }

  function closeStep(): UIMessageChunk[] {
    if (!inStep) return [];
    const chunks: UIMessageChunk[] = [];
    for (const id of openText) chunks.push({ type: 'text-end', id: partId(id) });
    for (const id of openReasoning) chunks.push({ type: 'reasoning-end', id: partId(id) });
    openText.clear();
    openReasoning.clear();
    // A call whose input never completed stays `input-streaming`; the reader accepts that.
    streamingInputs.clear();
    chunks.push({ type: 'finish-step' });
    inStep = false;
    step += 1;
    return chunks;
  }

  function modelEvent(event: AgentOutput): UIMessageChunk[] {
    switch (event.type) {
      case 'text_delta': {
        const id = partId(event.id);
        const chunks: UIMessageChunk[] = [];
        if (!openText.has(event.id)) {
          openText.add(event.id);
          chunks.push({ type: 'text-start', id });
        }
        chunks.push({ type: 'text-delta', id, delta: event.delta });
        return chunks;
      }
      case 'text': {
        const id = partId(event.id);
        if (openText.delete(event.id)) return [{ type: 'text-end', id }];
        // A whole block without deltas (a provider that does not stream).
        return [
          { type: 'text-start', id },
          { type: 'text-delta', id, delta: event.text },
          { type: 'text-end', id },
        ];
      }
      case 'reasoning_delta': {
        if (!sendReasoning) return [];
        const id = partId(event.id);
        const chunks: UIMessageChunk[] = [];
        if (!openReasoning.has(event.id)) {
          openReasoning.add(event.id);
          chunks.push({ type: 'reasoning-start', id });
        }
        chunks.push({ type: 'reasoning-delta', id, delta: event.delta });
        return chunks;
      }
      case 'reasoning': {
        if (!sendReasoning) return [];
        const id = partId(event.id);
        if (openReasoning.delete(event.id)) return [{ type: 'reasoning-end', id }];
        if (event.redacted === true || event.text === '') return [];
        return [
          { type: 'reasoning-start', id },
          { type: 'reasoning-delta', id, delta: event.text },
          { type: 'reasoning-end', id },
        ];
      }
      case 'tool_input_delta': {
        // Without a name there is no `tool-input-start` to send; `tool_use` brings the whole input.
        if (knownCalls.has(event.id)) return [];
        const chunks: UIMessageChunk[] = [];
        if (!streamingInputs.has(event.id)) {
          if (event.toolName === undefined) return [];
          streamingInputs.add(event.id);
          chunks.push({
            type: 'tool-input-start',
            toolCallId: event.id,
            toolName: event.toolName,
            dynamic: true,
          });
        }
        chunks.push({ type: 'tool-input-delta', toolCallId: event.id, inputTextDelta: event.delta });
        return chunks;
      }
      case 'tool_use':
        streamingInputs.delete(event.id);
        knownCalls.add(event.id);
        return [
          {
            type: 'tool-input-available',
            toolCallId: event.id,
            toolName: event.toolName,
            input: event.input,
            dynamic: true,
          },
        ];
      case 'finish':
        return closeStep();
      default:
        return [];
    }
  }

  // A whole stored answer as one step: its text, then its tool calls.
  function storedAnswer(message: ConversationMessage): UIMessageChunk[] {
    const chunks = startStep();
    const text = answerText(message);
    if (text !== '') {
      const id = partId('answer');
      chunks.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: text },
        { type: 'text-end', id },
      );
    }
    for (const call of message.tool_calls ?? []) {
      knownCalls.add(call.id);
      chunks.push({
        type: 'tool-input-available',
        toolCallId: call.id,
        toolName: call.function.name,
        input: parsedArguments(call.function.arguments),
        dynamic: true,
      });
    }
    return [...chunks, ...closeStep()];
  }

  // A stored approval request of a call the client holds, and the decision of one it was shown.
  function approvalRecord(message: ConversationMessage): UIMessageChunk[] {
    const record = message.approval;
    if (record?.kind === 'request') {
      if (!knownCalls.has(record.toolCallId)) return [];
      requestedApprovals.set(message.id, record.toolCallId);
      return [{ type: 'tool-approval-request', approvalId: message.id, toolCallId: record.toolCallId }];
    }
    const toolCallId = record === undefined ? undefined : requestedApprovals.get(record.requestId);
    if (record?.kind !== 'decision' || toolCallId === undefined) return [];
    const approved = record.outcome === 'approve' || record.outcome === 'edit';
    if (!approved) deniedCalls.add(toolCallId);
    return [
      {
        type: 'tool-approval-response',
        approvalId: record.requestId,
        approved,
        ...definedFields({ reason: record.reason }),
      },
    ];
  }

  function push(event: AgentOutput | RuntimeEvent): UIMessageChunk[] {
    const chunks = start();
    if (event.type === 'runtime') {
      if (event.event === 'message_persisted') {
        if (event.message.approval !== undefined) return [...chunks, ...approvalRecord(event.message)];
        if (!isStoredAnswer(event.message)) return chunks;
        if (!answerStreamed) chunks.push(...storedAnswer(event.message));
        answerStreamed = false;
        return chunks;
      }
      const { type: _type, event: _event, conversationId: _id, ...data } = event;
      chunks.push({ type: 'data-cairn-compression', data, transient: true });
      return chunks;
    }
    if (event.type === 'status') {
      // Model fallback (`model_fallback`, which model answers now) and the producer's other status lines.
      const detail = event.providerMetadata?.cairn;
      chunks.push({
        type: 'data-cairn-status',
        data: { status: event.status, message: event.message, ...definedFields({ detail }) },
        transient: true,
      });
      return chunks;
    }
    if (event.type === 'tool_result') {
      if (!knownCalls.delete(event.toolUseId)) return chunks;
      for (const [approvalId, toolCallId] of requestedApprovals) {
        if (toolCallId === event.toolUseId) requestedApprovals.delete(approvalId);
      }
      if (deniedCalls.delete(event.toolUseId)) {
        chunks.push({ type: 'tool-output-denied', toolCallId: event.toolUseId });
        return chunks;
      }
      // Images and files the tool returned (a screenshot, a read PNG) are shown as file parts.
      for (const part of event.content ?? []) {
        if ((part.type === 'image' || part.type === 'file') && isBase64Source(part.source)) {
          const mediaType = String(part.mediaType);
          chunks.push({ type: 'file', mediaType, url: `data:${mediaType};base64,${part.source.data}` });
        }
      }
      chunks.push(
        event.isError
          ? { type: 'tool-output-error', toolCallId: event.toolUseId, errorText: event.output, dynamic: true }
          : {
              type: 'tool-output-available',
              toolCallId: event.toolUseId,
              output: event.structured ?? event.output,
              dynamic: true,
            },
      );
      return chunks;
    }
    const opensStep = ['text_delta', 'text', 'reasoning_delta', 'reasoning', 'tool_input_delta', 'tool_use'];
    if (opensStep.includes(event.type)) {
      answerStreamed = true;
      chunks.push(...startStep());
    }
    chunks.push(...modelEvent(event));
    return chunks;
  }

  function end(outcome: UITurnOutcome): UIMessageChunk[] {
    const chunks = [...start(), ...closeStep()];
    const metadata: CairnUIMessageMetadata = {
      conversationId: outcome.conversationId,
      ...definedFields({ model: outcome.model, usage: outcome.usage, errorCode: outcome.error?.code }),
    };
    if (outcome.finishReason === 'aborted') {
      // As `streamText` does: `abort` ends the stream, no `finish`; the metadata comes before it.
      chunks.push({ type: 'message-metadata', messageMetadata: metadata });
      chunks.push({
        type: 'abort',
        ...definedFields({ reason: outcome.error?.message }),
      });
      return chunks;
    }
    if (outcome.error !== undefined) {
      chunks.push({ type: 'error', errorText: (options.onError ?? defaultErrorText)(outcome.error) });
    }
    if (options.sendFinish !== false) {
      chunks.push({
        type: 'finish',
        finishReason: FINISH_REASONS[outcome.finishReason],
        messageMetadata: metadata,
      });
    }
    return chunks;
  }

  return { push, end };
}

export type UIMessageChunkMapper = ReturnType<typeof createUIMessageChunkMapper>;
