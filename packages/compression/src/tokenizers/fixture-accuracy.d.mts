import type { ModelMessage } from '@cairn/core';
import type { CalibratedTokenizer } from './calibrated-tokenizer.js';

/** One request of the captured scenario and the input tokens the provider reported for it. */
export interface FixtureTurn {
  messages: readonly ModelMessage[];
  reportedInputTokens: number;
}

/** How well the tokenizer predicted one request, before it was calibrated with it. */
export interface TurnAccuracy {
  turn: number;
  reported: number;
  predicted: number;
  /** The tokenizer's scale when it predicted this turn. */
  scale: number;
  relativeError: number;
  /** From the second turn on: growth since the previous request, reported and predicted. */
  reportedGrowth?: number;
  predictedGrowth?: number;
  /** The growth as a never-calibrated tokenizer of the same kind estimates it. */
  estimatedGrowth?: number;
  calibratedGrowthError?: number;
  uncalibratedGrowthError?: number;
}

/** The five requests, each extending the previous one with the same message objects. */
export declare function readFixtureTurns(provider: 'anthropic' | 'gemini'): FixtureTurn[];

export declare function replayTurns(
  turns: readonly FixtureTurn[],
  tokenizer: CalibratedTokenizer,
  uncalibrated: CalibratedTokenizer,
): TurnAccuracy[];
