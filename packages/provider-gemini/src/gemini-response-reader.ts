import type { JsonValue } from '@cairn/core';
import type { StreamSink } from '@cairn/provider-utils';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiFunctionCall, GeminiPart, GeminiResponse } from './gemini-api-types.js';
import { thoughtSignatureMetadata } from './gemini-provider-metadata.js';
import { geminiToolCallId } from './gemini-tool-call-ids.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

// Block keys: a text or thought run ends when another kind of part arrives, and a key reused
// after its block ended starts a new block.
const TEXT = 'text';
const THOUGHT = 'thought';

/**
 * Reads Gemini responses into a `StreamSink`: the chunks of `streamGenerateContent` one by one, or
 * a whole `generateContent` response as a single chunk, so both give the same message. Text runs
 * become text blocks, `thought` parts reasoning blocks (keeping their `thoughtSignature`), and each
 * `functionCall` part (always whole) a complete tool call with a synthesised id. `turn` is the
 * number of messages in the request (see `geminiToolCallId`).
 */
export class GeminiResponseReader {
  private functionCallCount = 0;
  private hasToolCalls = false;
  private openBlock: typeof TEXT | typeof THOUGHT | undefined;
  private thoughtSignature: string | undefined;

  constructor(
    private readonly sink: StreamSink,
    private readonly turn: number,
  ) {}

  read(response: GeminiResponse): void {
    const { sink } = this;
    if (response.responseId !== undefined || response.modelVersion !== undefined) {
      sink.start({ responseId: response.responseId, modelId: response.modelVersion });
    }
    // Gemini answers with one candidate unless asked for more, which this adapter never does.
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.readPart(part);
    if (response.usageMetadata !== undefined) sink.usage(convertGeminiUsage(response.usageMetadata));
    // A blocked prompt has no candidate, only the block reason.
    const rawReason = candidate?.finishReason ?? response.promptFeedback?.blockReason;
    if (rawReason !== undefined) sink.finish(mapGeminiFinishReason(rawReason, this.hasToolCalls), rawReason);
  }

  /** Closes what is still open; call it once the response has been read to its end. */
  end(): void {
    this.closeBlock();
  }

  private readPart(part: GeminiPart): void {
    if (part.thought === true) {
      if (this.openBlock !== THOUGHT) this.closeBlock();
      this.openBlock = THOUGHT;
      this.sink.reasoningDelta(THOUGHT, part.text ?? '');
      // The signature comes with the thought's last part; it signs the whole thought.
      if (part.thoughtSignature !== undefined) this.thoughtSignature = part.thoughtSignature;
    } else if (part.functionCall !== undefined) {
      this.closeBlock();
      this.readFunctionCall(part.functionCall, part.thoughtSignature);
    } else if (typeof part.text === 'string') {
      if (this.openBlock !== TEXT) this.closeBlock();
      this.openBlock = TEXT;
      this.sink.textDelta(TEXT, part.text);
      // Gemini may sign the answer text (possibly with an empty part): kept on the message.
      const signature = part.thoughtSignature;
      if (signature !== undefined) this.sink.metadata(thoughtSignatureMetadata(signature));
    } else {
      // `inlineData`, `executableCode` and parts newer than this adapter: kept as unknown events.
      this.sink.unknown(part as unknown as JsonValue);
    }
  }

  private readFunctionCall(call: GeminiFunctionCall, thoughtSignature: string | undefined): void {
    const id = geminiToolCallId(call, { turn: this.turn, position: this.functionCallCount++ });
    this.hasToolCalls = true;
    this.sink.toolCallStart(id, call.name);
    this.sink.toolInputDelta(id, JSON.stringify(call.args ?? {}));
    this.sink.toolCallEnd(id, signed(thoughtSignature));
  }

  private closeBlock(): void {
    if (this.openBlock === TEXT) this.sink.textEnd(TEXT);
    if (this.openBlock === THOUGHT) {
      this.sink.reasoningEnd(THOUGHT, signed(this.thoughtSignature));
      this.thoughtSignature = undefined;
    }
    this.openBlock = undefined;
  }
}

/** The end info of a block or call that carries `signature`, if any. */
const signed = (signature: string | undefined) =>
  signature === undefined ? {} : { providerMetadata: thoughtSignatureMetadata(signature) };
