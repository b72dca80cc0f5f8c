import { type AgentOutput, definedFields, toCairnError } from '@cairn/core';
import type { ChatResult, RuntimeEvent } from '../runtime-types.js';
import {
  answerText,
  createUIMessageChunkMapper,
  isStoredAnswer,
  type UIMessageStreamOptions,
  uiTurnOutcome,
} from '../ui-stream/to-ui-message-chunks.js';
import type { UIMessageChunk } from '../ui-stream/ui-message-chunk.js';
import {
  createUIMessageStreamResponse,
  type UIMessageSseOptions,
} from '../ui-stream/ui-message-stream-response.js';
import { EventLog } from './event-log.js';

export type ChatStreamEvent = AgentOutput | RuntimeEvent;

/**
 * A turn as it happens (`runtime.stream`). The turn runs whether or not anyone reads: every event
 * is kept, so each way of reading (iterating it, `textStream`, the UI stream) starts from the first
 * event, however late, and any number of times. Leaving a loop early stops reading, not the turn:
 * abort with the `signal` you passed.
 */
export interface ChatStream<OUTPUT = never> extends AsyncIterable<ChatStreamEvent> {
  /** The conversation of the turn (generated when the call named none). */
  readonly conversationId: string;
  /** The text deltas of the model's answers (a block given whole comes as one piece). */
  readonly textStream: AsyncIterable<string>;
  /**
   * What `chat` returns: a failed turn resolves with `success: false` and its `error`; only a call
   * refused before anything ran (a bad id or input) rejects.
   */
  readonly result: Promise<ChatResult<OUTPUT>>;
  /** The turn as AI SDK UI message chunks (what `useChat` reads). */
  toUIMessageStream(options?: UIMessageStreamOptions): ReadableStream<UIMessageChunk>;
  /** The UI message stream as a server-sent events `Response` (`x-vercel-ai-ui-message-stream: v1`). */
  toUIMessageStreamResponse(init?: ResponseInit & UIMessageStreamOptions & UIMessageSseOptions): Response;
}

export interface ChatStreamSource<OUTPUT> {
  conversationId: string;
  /** `provider/modelId`, for the UI message's metadata. */
  model: string;
  /** Starts the turn now, giving each event to `emit`. */
  run(emit: (event: ChatStreamEvent) => void): Promise<ChatResult<OUTPUT>>;
}

/** Starts the turn and returns its stream. */
export function createChatStream<OUTPUT>(source: ChatStreamSource<OUTPUT>): ChatStream<OUTPUT> {
  const { conversationId } = source;
  const log = new EventLog<ChatStreamEvent>();
  const result = Promise.resolve()
    .then(() => source.run((event) => log.push(event)))
    .catch((thrown: unknown) => {
      // Readers see why the call was refused; `result` still rejects with it.
      const error = toCairnError(thrown, 'INVALID_ARGUMENT');
      log.push({
        type: 'error',
        timestamp: new Date().toISOString(),
        code: error.code,
        message: error.message,
        retryable: false,
        fatal: true,
      });
      throw error;
    })
    .finally(() => log.close());
  // Nobody has to await it: a refused call is also in the events.
  result.catch(() => undefined);

  async function* textStream(): AsyncGenerator<string> {
    const streamed = new Set<string>();
    let sawText = false;
    for await (const event of log.read()) {
      if (event.type === 'text_delta') {
        streamed.add(event.id);
        sawText = true;
        yield event.delta;
      } else if (event.type === 'text') {
        sawText = true;
        if (!streamed.delete(event.id)) yield event.text;
      } else if (
        event.type === 'runtime' &&
        event.event === 'message_persisted' &&
        isStoredAnswer(event.message)
      ) {
        // A model that does not stream gave no text events: its stored answer is the text.
        const text = sawText ? '' : answerText(event.message);
        sawText = false;
        if (text !== '') yield text;
      }
    }
  }

  function toUIMessageStream(options: UIMessageStreamOptions = {}): ReadableStream<UIMessageChunk> {
    const mapper = createUIMessageChunkMapper(conversationId, options);
    const events = log.read();
    return new ReadableStream<UIMessageChunk>({
      async pull(controller) {
        // One event may map to no chunk: read on until something is enqueued or the turn ended.
        while (true) {
          const next = await events.next();
          if (next.done) {
            const outcome = await result.then(
              (ended) => uiTurnOutcome(ended, source.model),
              (thrown: unknown) => ({
                conversationId,
                finishReason: 'error' as const,
                error: toCairnError(thrown, 'INVALID_ARGUMENT'),
              }),
            );
            for (const chunk of mapper.end(outcome)) controller.enqueue(chunk);
            controller.close();
            return;
          }
          const chunks = mapper.push(next.value);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (chunks.length > 0) return;
        }
      },
      async cancel() {
        await events.return();
      },
    });
  }

  return {
    conversationId,
    result,
    textStream: { [Symbol.asyncIterator]: textStream },
    [Symbol.asyncIterator]: () => log.read(),
    toUIMessageStream,
    toUIMessageStreamResponse(init = {}) {
      const { messageId, sendReasoning, sendStart, sendFinish, onError, ...responseInit } = init;
      const options = definedFields({ messageId, sendReasoning, sendStart, sendFinish, onError });
      return createUIMessageStreamResponse(toUIMessageStream(options), responseInit);
    },
  };
}
