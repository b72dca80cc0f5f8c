import type { JsonValue } from '@cairn/core';

/** What every event converted from one Claude Code line shares. */
export interface ClaudeCodeEventContext {
  timestamp: string;
  parentToolUseId?: string;
}

/** The source name of `unknown` events from Claude Code output. */
export const CLAUDE_CODE_SOURCE = 'claude-code';

export type JsonObject = { [key: string]: JsonValue };

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringField = (object: JsonObject, key: string): string | undefined => {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
};

export const numberField = (object: JsonObject, key: string): number | undefined => {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

// A timestamp the CLI reported (user lines carry one) wins over the converter's clock.
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The context of `line`: its own timestamp when valid, else `now()`, and its sub-agent parent. */
export function eventContextOf(line: JsonObject, now: () => Date): ClaudeCodeEventContext {
  const reported = stringField(line, 'timestamp');
  const timestamp = reported !== undefined && ISO_DATETIME.test(reported) ? reported : now().toISOString();
  const parentToolUseId = stringField(line, 'parent_tool_use_id');
  return parentToolUseId === undefined ? { timestamp } : { timestamp, parentToolUseId };
}
