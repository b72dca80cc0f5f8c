import {
  CairnError,
  type ContentPart,
  compactionSummaryText,
  definedFields,
  isMediaPart,
  type ModelMessage,
  partPlaceholder,
  type Tokenizer,
} from '@cairn/core';
import { createEstimatingTokenizer } from '../tokenizers/index.js';
import type {
  CompressionResult,
  CompressionStep,
  CompressionSummary,
  ContextUsage,
  HistoricalCompressionResult,
} from './compression-types.js';
import type { Summarizer } from './summarizer.js';
import { protectedStart, systemPromptEnd, unitStarts } from './turn-units.js';

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
  /** Step 2 runs only with one; without, old turns are dropped instead of summarised. */
  summarizer?: Summarizer;
  /** Characters of an old tool output kept by step 1 (which cuts outputs over twice this). Default 300. */
  toolOutputPreviewLength?: number;
}

interface Work {
  messages: ModelMessage[];
  tokens: number;
  /** Where the part that must stay as it is starts (moves as messages are replaced). */
  protectedFrom: number;
  floor: number;
  steps: CompressionStep[];
  summaries: CompressionSummary[];
  /** Index in the caller's messages of each working message (-1 for ones the pipeline wrote). */
  origin: number[];
}

const ratio = (name: string, value: number) => {
  if (!(value > 0 && value <= 1))
    throw new CairnError('INVALID_ARGUMENT', `${name} must be in (0, 1], got ${value}`);
  return value;
};

/** What an image or file left out of the request is sent as: `[image: chart.png — removed from context to save space]`. */
export function removedPartPlaceholder(part: ContentPart): string {
  return `${partPlaceholder(part).slice(0, -1)} — removed from context to save space]`;
}

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
  /** Writes step 2's summaries; without one, old turns are left out instead. */
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

  // A message's own tokens: its count alone, less what an empty request costs.
  private tokensOf(message: ModelMessage): number {
    return this.tokenizer.count([message]) - this.tokenizer.count([]);
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
    const work: Work = {
      messages: [...messages],
      tokens: before.tokens,
      protectedFrom: protectedStart(messages, this.minRecentMessages, limit, floor),
      floor,
      steps: [],
      summaries: [],
      origin: messages.map((_message, index) => index),
    };
    const target = this.targetUsage * this.budget;
    // Forced, trimming and summarising go as far as they can (a target of 0 tokens).
    const stepTarget = force ? 0 : target;
    if (work.tokens > stepTarget) this.dropOldMedia(work, limit, stepTarget);
    if (work.tokens > stepTarget) this.trimToolOutputs(work, stepTarget);
    if (work.tokens > stepTarget && this.summarizer !== undefined) {
      const failure = await this.summarizeTurns(work, stepTarget, this.summarizer, signal);
      if (force && failure !== undefined) return unchanged(`could not summarise: ${failure}`);
    }
    if (work.tokens > target && !(force && this.summarizer !== undefined)) this.dropTurns(work, target);
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
  private nothingToCompress(work: Work): string {
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

  /**
   * Step 1: images and files before the latest user turn (and before a running loop's messages)
   * give way to a text placeholder, oldest first, so the newest are kept longest. They are the
   * costliest parts of an old turn and the cheapest to lose: the text around them stays, and the
   * recent window keeps its messages. Unknown part types are left as they are.
   */
  private dropOldMedia(work: Work, limit: number, target: number): void {
    const tokensBefore = work.tokens;
    const end = protectedStart(work.messages, 0, limit, work.floor);
    let changed = 0;
    for (let index = work.floor; index < end && work.tokens > target; index++) {
      const original = work.messages[index] as ModelMessage;
      let message = original;
      for (let at = 0; Array.isArray(message.content) && at < message.content.length; at++) {
        if (work.tokens <= target) break;
        const part = message.content[at] as ContentPart;
        if (!isMediaPart(part)) continue;
        const content = message.content.with(at, { type: 'text', text: removedPartPlaceholder(part) });
        const next = { ...message, content } as ModelMessage;
        work.tokens += this.tokensOf(next) - this.tokensOf(message);
        message = next;
      }
      if (message === original) continue;
      work.messages[index] = message;
      changed++;
    }
    if (changed > 0)
      work.steps.push({ step: 'drop-old-media', messages: changed, tokensBefore, tokensAfter: work.tokens });
  }

  /**
   * Step 2: old tool outputs over twice the preview length are cut to the preview, oldest first.
   * A shorter one is left whole: cutting it would save less than the preview it keeps. An output of
   * parts (a tool that returned an image) is left to step 1.
   */
  private trimToolOutputs(work: Work, target: number): void {
    const tokensBefore = work.tokens;
    let trimmed = 0;
    for (let index = work.floor; index < work.protectedFrom && work.tokens > target; index++) {
      const message = work.messages[index] as ModelMessage;
      if (
        message.role !== 'tool' ||
        typeof message.content !== 'string' ||
        message.content.length <= this.previewLength * 2
      )
        continue;
      const removed = message.content.length - this.previewLength;
      const cut: ModelMessage = {
        ...message,
        content: `${message.content.slice(0, this.previewLength)}\n[… ${removed} more characters of this output were left out to save context; run the tool again if they are needed]`,
      };
      work.tokens += this.tokensOf(cut) - this.tokensOf(message);
      work.messages[index] = cut;
      trimmed++;
    }
    if (trimmed > 0)
      work.steps.push({
        step: 'trim-tool-outputs',
        messages: trimmed,
        tokensBefore,
        tokensAfter: work.tokens,
      });
  }

  /** The oldest units that, left out, bring the request to `target` (all the compressible ones if none do). */
  private oldestUnitsToRemove(work: Work, target: number, room: number): { end: number; tokens: number } {
    const starts = unitStarts(work.messages, work.floor, work.protectedFrom);
    let removed = 0;
    let end = work.floor;
    let unit = 0;
    const take = () => {
      const stop = starts[unit + 1] ?? work.protectedFrom;
      for (let index = starts[unit] as number; index < stop; index++)
        removed += this.tokensOf(work.messages[index] as ModelMessage);
      end = stop;
      unit++;
    };
    while (unit < starts.length && work.tokens - removed + room > target) take();
    // Whole turns: up to the next user message, so no answer stays without its request.
    while (unit < starts.length && (work.messages[end] as ModelMessage).role !== 'user') take();
    return { end, tokens: removed };
  }

  /**
   * Step 3: the oldest whole turns replaced by one summary message. Returns why, when the summary
   * could not be used (the history is then as it was).
   */
  private async summarizeTurns(
    work: Work,
    target: number,
    summarizer: Summarizer,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const tokensBefore = work.tokens;
    // Room for the summary itself: a tenth of what is summarised, at most 2,000 tokens.
    const { end, tokens } = this.oldestUnitsToRemove(
      work,
      target,
      Math.min(2_000, (work.tokens - target) / 10),
    );
    if (end - work.floor < 2) return undefined;
    const selected = work.messages.slice(work.floor, end);
    const failed = (error: string) => {
      work.steps.push({ step: 'summarize', messages: 0, tokensBefore, tokensAfter: tokensBefore, error });
      return error;
    };
    let text: string;
    try {
      text = (await summarizer.summarize({ messages: selected, ...definedFields({ signal }) })).trim();
      if (text === '') throw new Error('the summariser returned no text');
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    const summary: ModelMessage = { role: 'user', content: compactionSummaryText(text) };
    const summaryTokens = this.tokensOf(summary);
    // A summary that saves nothing would only lose detail (a short history summarised at length).
    if (summaryTokens >= tokens) {
      return failed(
        `the summary (${summaryTokens} tokens) is no shorter than the ${selected.length} messages it would replace (${tokens} tokens)`,
      );
    }
    const origins = work.origin.slice(work.floor, end).filter((origin) => origin >= 0);
    this.replace(work, end, [summary]);
    work.tokens += summaryTokens - tokens;
    if (origins.length > 0) {
      work.summaries.push({
        text,
        fromIndex: origins[0] as number,
        toIndex: origins.at(-1) as number,
        tokensBefore: tokens,
        tokensAfter: summaryTokens,
      });
    }
    work.steps.push({ step: 'summarize', messages: selected.length, tokensBefore, tokensAfter: work.tokens });
    return undefined;
  }

  /** Step 4: the oldest whole turns left out, with a note saying so. */
  private dropTurns(work: Work, target: number): void {
    const tokensBefore = work.tokens;
    const note = (count: number): ModelMessage => ({
      role: 'user',
      content: `[${count} earlier messages were left out to fit the context window.]`,
    });
    const { end, tokens } = this.oldestUnitsToRemove(work, target, this.tokensOf(note(0)));
    const count = end - work.floor;
    const marker = note(count);
    // A note costlier than what it stands for (one short message) would only lose the message.
    if (count === 0 || this.tokensOf(marker) >= tokens) return;
    this.replace(work, end, [marker]);
    work.tokens += this.tokensOf(marker) - tokens;
    work.steps.push({ step: 'drop-turns', messages: count, tokensBefore, tokensAfter: work.tokens });
  }

  // Replaces the working messages from the floor up to `end` with `inserted`.
  private replace(work: Work, end: number, inserted: ModelMessage[]): void {
    const count = end - work.floor;
    work.messages.splice(work.floor, count, ...inserted);
    work.origin.splice(work.floor, count, ...inserted.map(() => -1));
    work.protectedFrom += inserted.length - count;
    work.floor += inserted.length;
  }
}
