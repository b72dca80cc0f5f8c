import { CairnError, type ModelMessage, type Tokenizer } from '@cairn/core';
import { createEstimatingTokenizer } from '../tokenizers/index.js';
import type { CompressionResult, ContextUsage, HistoricalCompressionResult } from './compression-types.js';
import type { CompressionWork } from './compression-work.js';
import { dropOldMedia } from './drop-old-media.js';
import { dropTurns } from './drop-turns.js';
import { summarizeTurns } from './summarize-turns.js';
import type { Summarizer } from './summarizer.js';
import { trimToolOutputs } from './trim-tool-outputs.js';
import { protectedStart, systemPromptEnd } from './turn-units.js';

export { removedPartPlaceholder } from './drop-old-media.js';

export interface CompressionPipelineOptions {
  /** The model's context window, in tokens. Default 128,000. */
  tokenBudget?: number;
  /** Compress when a request uses more than this share of the budget. Default 0.8. */
  triggerThreshold?: number;
  /** Compress down to this share. Default 0.5. */
  targetUsage?: number;
  /** The latest messages are never compressed: at least this many, rounded to whole turns. Default 10. */
  minRecentMessages?: number;
  /** Tokens kept free for the answer: the budget for input is `tokenBudget − reserveOutputTokens`. Default 0. */
  reserveOutputTokens?: number;
  /** Default: a generic calibrated estimate. */
  tokenizer?: Tokenizer;
  /** Step 3 runs only with one; without, old turns are dropped instead of summarised. */
  summarizer?: Summarizer;
  /** Characters of an old tool output kept by step 2 (which cuts outputs over twice this). Default 300. */
  toolOutputPreviewLength?: number;
}

const ratio = (name: string, value: number) => {
  if (!(value > 0 && value <= 1))
    throw new CairnError('INVALID_ARGUMENT', `${name} must be in (0, 1], got ${value}`);
  return value;
};

/**
 * Keeps requests inside the context window. Steps, cheapest first, each stopping as soon as usage
 * is at or under the target: (1) the bytes of old images and files (before the latest user turn)
 * left out, oldest first, each replaced by a text placeholder; (2) old tool outputs over twice the
 * preview length cut to the preview; (3) the oldest whole turns summarised by the `summarizer` (a
 * failure, or a summary no shorter than what it would replace, leaves them as they were and is
 * reported); (4) the oldest whole turns left out. The system prompt and the latest user request
 * (with its images) are never touched, nor is the recent window beyond step 1, and an assistant
 * message always stays or leaves with its results. Only the request changes: the messages given
 * (the log's) are never modified. `compressNow` compresses whatever the usage.
 */
export class CompressionPipeline {
  readonly budget: number;
  readonly triggerThreshold: number;
  readonly targetUsage: number;
  readonly minRecentMessages: number;
  readonly tokenizer: Tokenizer;
  /** Writes step 3's summaries; without one, old turns are left out instead. */
  readonly summarizer: Summarizer | undefined;
  private readonly previewLength: number;
  // The thrash guard: after an attempt that could not reach the target, no new attempt until the
  // request has grown by a twentieth of the budget (otherwise every call would redo the same work).
  private partialAt: number | undefined;

  constructor(options: CompressionPipelineOptions = {}) {
    const tokenBudget = options.tokenBudget ?? 128_000;
    const reserve = options.reserveOutputTokens ?? 0;
    if (
      !(
        Number.isInteger(tokenBudget) &&
        tokenBudget > 0 &&
        Number.isInteger(reserve) &&
        reserve >= 0 &&
        reserve < tokenBudget
      )
    ) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `tokenBudget must be a positive integer above reserveOutputTokens (${tokenBudget}, ${reserve})`,
      );
    }
    this.budget = tokenBudget - reserve;
    this.triggerThreshold = ratio('triggerThreshold', options.triggerThreshold ?? 0.8);
    this.targetUsage = ratio('targetUsage', options.targetUsage ?? 0.5);
    if (this.targetUsage > this.triggerThreshold) {
      throw new CairnError('INVALID_ARGUMENT', 'targetUsage must not be above triggerThreshold');
    }
    this.minRecentMessages = options.minRecentMessages ?? 10;
    if (!(Number.isInteger(this.minRecentMessages) && this.minRecentMessages >= 0)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `minRecentMessages must be a non-negative integer, got ${this.minRecentMessages}`,
      );
    }
    this.tokenizer = options.tokenizer ?? createEstimatingTokenizer({ family: 'generic' });
    this.summarizer = options.summarizer;
    this.previewLength = options.toolOutputPreviewLength ?? 300;
  }

  getUsage(messages: readonly ModelMessage[]): ContextUsage {
    return this.usageOf(this.tokenizer.count(messages));
  }

  shouldCompress(messages: readonly ModelMessage[]): boolean {
    const { tokens, usagePercent } = this.getUsage(messages);
    if (usagePercent <= this.triggerThreshold) return false;
    return this.partialAt === undefined || tokens >= this.partialAt + this.budget / 20;
  }

  /** Compresses `messages` (a new array; the given one is not changed) when it is over the trigger. */
  async compressIfNeeded(
    messages: readonly ModelMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<CompressionResult> {
    return this.run(messages, messages.length, options.signal);
  }

  /**
   * Compresses now, whatever the usage (a user's `/compress`): the trigger and the thrash guard are
   * ignored, every image and file before the latest user turn becomes its placeholder, every old
   * tool output over twice the preview length is cut to the preview, and
   * everything before the recent window and the latest request is summarised in one summary.
   * Nothing is left out: a summariser
   * failure (or a summary no shorter than what it replaces) leaves the messages as they were,
   * with the reason, so asking again can do it whole. Without a summariser, the oldest turns are
   * left out only as far as the target needs: what is left out is gone, with no summary to keep it.
   */
  async compressNow(
    messages: readonly ModelMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<CompressionResult> {
    return this.run(messages, messages.length, options.signal, true);
  }

  /**
   * In-loop compression: only what precedes `loopStartIndex` may change, so the running
   * loop's calls and results reach the model as they are.
   */
  async compressHistoricalMessages(
    messages: readonly ModelMessage[],
    loopStartIndex: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<HistoricalCompressionResult> {
    if (!(Number.isInteger(loopStartIndex) && loopStartIndex >= 0 && loopStartIndex <= messages.length)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `loopStartIndex ${loopStartIndex} is not an index of the messages`,
      );
    }
    const result = await this.run(messages, loopStartIndex, options.signal);
    return { ...result, newLoopStartIndex: result.messages.length - (messages.length - loopStartIndex) };
  }

  private usageOf(tokens: number): ContextUsage {
    return { tokens, budget: this.budget, usagePercent: tokens / this.budget };
  }

  private async run(
    messages: readonly ModelMessage[],
    limit: number,
    signal: AbortSignal | undefined,
    force = false,
  ): Promise<CompressionResult> {
    const before = this.getUsage(messages);
    const unchanged = (reason: string): CompressionResult => ({
      messages: [...messages],
      compressed: false,
      before,
      after: before,
      steps: [],
      summaries: [],
      reason,
    });
    if (!force && !this.shouldCompress(messages)) {
      return unchanged(
        before.usagePercent <= this.triggerThreshold
          ? 'under the trigger'
          : 'the last attempt could not reach the target and the request has barely grown since',
      );
    }
    const floor = systemPromptEnd(messages);
    const work: CompressionWork = {
      messages: [...messages],
      tokens: before.tokens,
      tokenizer: this.tokenizer,
      protectedFrom: protectedStart(messages, this.minRecentMessages, limit, floor),
      floor,
      steps: [],
      summaries: [],
      origin: messages.map((_message, index) => index),
    };
    const target = this.targetUsage * this.budget;
    // Forced, trimming and summarising go as far as they can (a target of 0 tokens).
    const stepTarget = force ? 0 : target;
    if (work.tokens > stepTarget) dropOldMedia(work, limit, stepTarget);
    if (work.tokens > stepTarget) trimToolOutputs(work, this.previewLength, stepTarget);
    if (work.tokens > stepTarget && this.summarizer !== undefined) {
      const failure = await summarizeTurns(work, stepTarget, this.summarizer, signal);
      if (force && failure !== undefined) return unchanged(`could not summarise: ${failure}`);
    }
    if (work.tokens > target && !(force && this.summarizer !== undefined)) dropTurns(work, target);
    if (force && work.steps.length === 0) return unchanged(this.nothingToCompress(work));
    const after = this.getUsage(work.messages);
    const reached = after.tokens <= target;
    this.partialAt = reached ? undefined : after.tokens;
    return {
      messages: work.messages,
      compressed: reached ? true : 'partial',
      before,
      after,
      steps: work.steps,
      summaries: work.summaries,
      ...(reached
        ? {}
        : {
            reason: `the system prompt and the ${work.messages.length - work.protectedFrom} messages that must stay (the recent window, the latest request, the running loop) need ${after.tokens} tokens, over the target of ${Math.floor(target)}`,
          }),
    };
  }

  /** Why a forced compression changed nothing. */
  private nothingToCompress(work: CompressionWork): string {
    const older = work.protectedFrom - work.floor;
    if (older === 0)
      return 'nothing to compress: every message after the system prompt is in the recent window or the latest request';
    const what =
      older === 1
        ? 'the 1 message before the recent window'
        : `the ${older} messages before the recent window`;
    return `nothing to compress: cutting, summarising or leaving out ${what} would not make the request smaller${
      this.summarizer === undefined
        ? ' (without a summariser, old turns are left out only down to the target)'
        : ''
    }`;
  }
}
