import type { AgentOutput, AgentOutputOf } from '@cairn/core';
import { LineSplitter } from '@cairn/provider-utils';
import type { StderrEventConverter } from './agent-cli-definition.js';

// Gemini CLI's retry loop (`retryWithBackoff`): "Attempt 2 failed with status 503. Retrying with
// backoff... <the error and its stack>", or "Attempt 2 failed. Retrying with backoff..." when the
// failure has no HTTP status.
const GEMINI_RETRY = /\bAttempt (\d{1,4}) failed(?: with status (\d{3}))?\. Retrying with backoff/;

// Lines longer than this are stack dumps and JSON bodies, never a retry line: not searched.
const MAX_LINE_LENGTH = 4096;

/**
 * Reads Gemini CLI's stderr for its retry lines, each a `retry` event stamped with the clock (the
 * line has no time of its own). Anything else there (stack traces, warnings) is left to the
 * executor's stderr tail.
 */
export function createGeminiCliStderrConverter(now: () => Date = () => new Date()): StderrEventConverter {
  const splitter = new LineSplitter();
  return {
    push(chunk) {
      const events: AgentOutput[] = [];
      for (const line of splitter.push(chunk)) {
        if (line.length > MAX_LINE_LENGTH) continue;
        const match = GEMINI_RETRY.exec(line);
        if (match === null) continue;
        const attempt = Number(match[1]);
        if (attempt < 1) continue;
        const event: AgentOutputOf<'retry'> = { type: 'retry', timestamp: now().toISOString(), attempt };
        if (match[2] !== undefined) event.status = Number(match[2]);
        events.push(event);
      }
      return events;
    },
  };
}
