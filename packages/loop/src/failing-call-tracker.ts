import { createHash } from 'node:crypto';
import { contentText, type ToolCallResult } from '@cairn/core';

/** Default number of identical failing calls in a row that ends a loop with `LOOP_STUCK`. */
export const DEFAULT_STUCK_THRESHOLD = 3;

/** The failing-call state a workflow run stores between loops, so stuck detection spans its turns. */
export interface FailState {
  lastFailFingerprint: string | null;
  consecutiveFailCount: number;
}

// Arguments compared by meaning: key order and spacing do not make a call different.
function normalisedArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
    );
  } catch {
    return text.trim();
  }
}

/**
 * One failing call as a short, stable string: the tool, its normalised arguments and the error
 * (code and text), hashed so a run can keep it whatever the size of the arguments.
 */
export function failFingerprint(result: ToolCallResult, argumentsText: string): string {
  const hash = createHash('sha256')
    .update(normalisedArguments(argumentsText))
    .update('\0')
    .update(result.errorCode ?? '')
    .update('\0')
    .update(contentText(result.content, { placeholders: true }))
    .digest('hex')
    .slice(0, 16);
  return `${result.toolName}:${hash}`;
}

/**
 * Counts the same failing call repeating: a different failure starts the count again,
 * a success clears it. An interrupted call is neither: it says nothing about the call itself.
 */
export class FailingCallTracker {
  private state: FailState;

  constructor(initial: Partial<FailState> = {}) {
    this.state = {
      lastFailFingerprint: initial.lastFailFingerprint ?? null,
      consecutiveFailCount: initial.consecutiveFailCount ?? 0,
    };
  }

  /** Records a result; returns the count of identical failures in a row it makes. */
  record(result: ToolCallResult, argumentsText: string): number {
    if (result.interrupted) return this.state.consecutiveFailCount;
    if (!result.isError) {
      this.state = { lastFailFingerprint: null, consecutiveFailCount: 0 };
      return 0;
    }
    const fingerprint = failFingerprint(result, argumentsText);
    const count = fingerprint === this.state.lastFailFingerprint ? this.state.consecutiveFailCount + 1 : 1;
    this.state = { lastFailFingerprint: fingerprint, consecutiveFailCount: count };
    return count;
  }

  get current(): FailState {
    return { ...this.state };
  }
}
