import {
  definedFields,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResult,
  type ModelStream,
} from '@cairn/core';
import { classifyError } from './classify-error.js';
import { createModelStream } from './create-model-stream.js';
import { createResultAssembler, type ResultAssembler } from './result-assembler.js';
import { retryStream } from './retry-stream.js';
import type { StreamSink } from './stream-sink.js';
import { type RetryOptions, withRetry } from './with-retry.js';

/**
 * What one provider does for `createModelAdapter`: build the body, make one attempt of each kind
 * of call, and read what comes back into provider-neutral pieces. Retrying, assembling and
 * classifying are the helper's.
 */
export interface ModelAdapterSpec<Body, Response, Event> {
  provider: string;
  modelId: string;
  capabilities: ModelCapabilities;
  /** Retries of a retryable failure (`resolveModelAdapterOptions` gives the default). */
  maxRetries: number;
  /**
   * The request body, built once per call before anything is sent (every attempt sends it):
   * throwing, e.g. `UNSUPPORTED_CONTENT` for a part the model cannot take, fails the call. It may
   * be async (downloading what the model cannot fetch itself); `signal` is the call's.
   */
  prepare(request: ModelRequest, signal: AbortSignal | undefined): Body | Promise<Body>;
  /** One attempt of the whole (non-streamed) call; it should pass `request.signal` on. */
  send(body: Body, request: ModelRequest): Promise<Response>;
  /** Reads the whole response into the assembler (`start`, blocks, `usage`, `finish`). */
  readResponse(response: Response, assembler: ResultAssembler, request: ModelRequest): void | Promise<void>;
  /**
   * One attempt to open the streamed call, retried until its first event arrives. `signal` is the
   * request's, joined with the consumer stopping early: pass it on to the SDK.
   */
  open(body: Body, request: ModelRequest, signal: AbortSignal): Promise<AsyncIterable<Event>>;
  /** Reads the stream's events into the sink, returning when the provider's stream has ended. */
  readEvents(events: AsyncIterable<Event>, sink: StreamSink, request: ModelRequest): Promise<void>;
}

/**
 * The skeleton every SDK-backed adapter shares, so that each says only how its provider is called
 * and read. `generate` prepares the body, sends it with `withRetry` and assembles the response;
 * `stream` opens it with `retryStream` (never replaying a stream that produced output) inside
 * `createModelStream`. Anything thrown comes out a classified `CairnError` naming the provider.
 */
export function createModelAdapter<Body, Response, Event>(
  spec: ModelAdapterSpec<Body, Response, Event>,
): ModelAdapter {
  const { provider } = spec;
  const retryOptions = (signal: AbortSignal | undefined): RetryOptions => ({
    maxRetries: spec.maxRetries,
    provider,
    ...definedFields({ signal }),
  });
  return {
    provider,
    modelId: spec.modelId,
    capabilities: spec.capabilities,

    async generate(request: ModelRequest): Promise<ModelResult> {
      try {
        const body = await spec.prepare(request, request.signal);
        const response = await withRetry(() => spec.send(body, request), retryOptions(request.signal));
        const assembler = createResultAssembler();
        await spec.readResponse(response, assembler, request);
        return assembler.complete();
      } catch (error) {
        throw classifyError(error, { provider, signal: request.signal });
      }
    },

    stream(request: ModelRequest): ModelStream {
      return createModelStream(
        async (sink, signal) => {
          const body = await spec.prepare(request, signal);
          const events = retryStream(() => spec.open(body, request, signal), retryOptions(signal));
          await spec.readEvents(events, sink, request);
        },
        { provider, ...definedFields({ signal: request.signal }) },
      );
    },
  };
}
