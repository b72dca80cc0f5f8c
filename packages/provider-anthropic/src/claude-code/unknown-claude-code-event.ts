import type { AgentOutput, JsonValue } from '@cairn/core';
import { CLAUDE_CODE_SOURCE, type ClaudeCodeEventContext } from './claude-code-event-context.js';

// Values JSON cannot hold (undefined, functions, cycles) are replaced so the event stays valid.
function toJsonValue(value: unknown): JsonValue {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as JsonValue);
  } catch {
    return String(value);
  }
}

/** Output the converter does not recognise, kept whole. */
export function unknownClaudeCodeEvent(raw: unknown, context: ClaudeCodeEventContext): AgentOutput {
  return { type: 'unknown', ...context, source: CLAUDE_CODE_SOURCE, raw: toJsonValue(raw) };
}
