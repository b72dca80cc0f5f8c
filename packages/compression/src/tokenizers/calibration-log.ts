import type { ModelMessage } from '@cairn/core';

/** The learned scale stays within these bounds, so one odd report cannot wreck later estimates. */
export const MIN_CALIBRATION_SCALE = 0.5;
export const MAX_CALIBRATION_SCALE = 2;
/** Observations kept; the oldest is forgotten first (the longest, newest ones are the useful bases). */
export const MAX_CALIBRATION_OBSERVATIONS = 16;

/** A request the provider reported on: these exact message objects cost `reported` input tokens. */
interface Observation {
  readonly messages: readonly ModelMessage[];
  readonly reported: number;
  /** The uncalibrated per-message sum of `messages` (framing of the request excluded). */
  readonly estimated: number;
  readonly sequence: number;
}

const isPrefixOf = (prefix: readonly ModelMessage[], messages: readonly ModelMessage[]): boolean => {
  if (prefix.length > messages.length) return false;
  for (let index = 0; index < prefix.length; index++) if (prefix[index] !== messages[index]) return false;
  return true;
};

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/**
 * What the provider reported on earlier requests of one conversation, turned into corrections.
 *
 * A provider's input tokens = the messages + an overhead nobody sees locally (its own system
 * prompt, tool schemas, formatting). An observation of a list fixes that sum exactly, so a list that
 * extends it is counted as `reported + estimate(new messages) × scale`: the overhead and any error
 * of the estimate on the observed messages are absorbed. `scale` corrects the estimate of what is
 * new: over pairs of observations where one extends the other, it is (sum of reported growth) ÷
 * (sum of estimated growth), clamped to [0.5, 2]; 1 until such a pair exists. Summing before
 * dividing keeps a turn that added few tokens from swinging the ratio.
 */
export class CalibrationLog {
  readonly #learnsScale: boolean;
  /** Longest first, so the first one that is a prefix is the longest recorded prefix. */
  #observations: Observation[] = [];
  #latest: Observation | undefined;
  #sequence = 0;
  #reportedGrowth = 0;
  #estimatedGrowth = 0;

  constructor(learnsScale: boolean) {
    this.#learnsScale = learnsScale;
  }

  get scale(): number {
    if (!this.#learnsScale || this.#estimatedGrowth <= 0) return 1;
    return clamp(this.#reportedGrowth / this.#estimatedGrowth, MIN_CALIBRATION_SCALE, MAX_CALIBRATION_SCALE);
  }

  record(messages: readonly ModelMessage[], reported: number, estimated: number): void {
    const base = this.#longestPrefixOf(messages);
    if (base !== undefined && base.messages.length < messages.length) {
      this.#reportedGrowth += reported - base.reported;
      this.#estimatedGrowth += estimated - base.estimated;
    }
    const observation = { messages: [...messages], reported, estimated, sequence: this.#sequence++ };
    // The same list reported again: the newer report replaces the older.
    const replaced = base?.messages.length === messages.length ? base : undefined;
    const kept = this.#observations.filter((old) => old !== replaced);
    if (kept.length === MAX_CALIBRATION_OBSERVATIONS) {
      const oldest = kept.reduce((a, b) => (a.sequence < b.sequence ? a : b));
      kept.splice(kept.indexOf(oldest), 1);
    }
    const at = kept.findIndex((old) => old.messages.length <= messages.length);
    kept.splice(at === -1 ? kept.length : at, 0, observation);
    this.#observations = kept;
    this.#latest = observation;
  }

  /**
   * The calibrated count of `messages`, whose uncalibrated per-message sum is `estimated`; undefined
   * before any observation. A list that extends an observed one is `reported + (estimated -
   * observed estimate) × scale`. A list that extends none (after compaction, say) still pays the
   * provider's overhead: that of the latest observation, `reported - observed estimate × scale`
   * (at least 0), plus `estimated × scale`; so `count([m]) - count([])` stays m's scaled estimate.
   */
  count(messages: readonly ModelMessage[], estimated: number): number | undefined {
    const scale = this.scale;
    const base = this.#longestPrefixOf(messages);
    if (base !== undefined) return Math.round(base.reported + (estimated - base.estimated) * scale);
    const latest = this.#latest;
    if (latest === undefined) return undefined;
    return Math.round(Math.max(0, latest.reported - latest.estimated * scale) + estimated * scale);
  }

  #longestPrefixOf(messages: readonly ModelMessage[]): Observation | undefined {
    return this.#observations.find((observation) => isPrefixOf(observation.messages, messages));
  }
}
