import { randomUUID } from 'node:crypto';
import type { AgentOutput, AgentOutputOf } from '@cairn/core';
import { parseCliApiError } from '../cli-api-error.js';
import { classifyCodexError } from './codex-error-code.js';
import {
  type Clock,
  isRecord,
  type Line,
  malformedLineEvent,
  neverThrowing,
  optionalString,
  systemClock,
  unknownEvent,
  unknownFieldsEvent,
} from './codex-event-factory.js';
import { type CodexSessionState, convertCodexItem } from './convert-codex-item.js';
import { CODEX_USAGE_FIELDS, usageFromCodex } from './convert-codex-usage.js';

export interface CodexConverterOptions {
  /** Time for every event: Codex lines carry none. Defaults to the system clock. */
  now?: Clock;
  /**
   * Prefixed to item ids to make the events' ids (`<runId>/item_3`). Codex numbers items from
   * `item_0` in every run, a resumed one too, so ids would repeat across the runs of a thread.
   * Defaults to a random tag; give one for reproducible output.
   */
  runId?: string;
}

/** Converts `codex exec --json` output, one line at a time. */
export interface CodexConverter {
  /** The events of one line (without its line break). Never throws. */
  push(line: string): AgentOutput[];
  /** Nothing is held back between lines: an ended stream adds no events. */
  end(): AgentOutput[];
}

const ITEM_PHASES = {
  'item.started': 'started',
  'item.updated': 'updated',
  'item.completed': 'completed',
} as const;

type LineType =
  | keyof typeof ITEM_PHASES
  | 'thread.started'
  | 'turn.started'
  | 'turn.completed'
  | 'turn.failed'
  | 'error';
const KNOWN_FIELDS: Record<LineType, ReadonlySet<string>> = {
  'thread.started': new Set(['type', 'thread_id']),
  'turn.started': new Set(['type']),
  'turn.completed': new Set(['type', 'usage']),
  'turn.failed': new Set(['type', 'error']),
  error: new Set(['type', 'message']),
  'item.started': new Set(['type', 'item']),
  'item.updated': new Set(['type', 'item']),
  'item.completed': new Set(['type', 'item']),
};

const isLineType = (type: unknown): type is LineType =>
  typeof type === 'string' && Object.hasOwn(KNOWN_FIELDS, type);

function sessionResult(
  timestamp: string,
  state: CodexSessionState,
  isError: boolean,
  subtype: string,
): AgentOutputOf<'session_result'> {
  const result: AgentOutputOf<'session_result'> = { type: 'session_result', timestamp, isError, subtype };
  if (state.threadId !== undefined) result.sessionId = state.threadId;
  return result;
}

function convertTurnCompleted(line: Line, timestamp: string, state: CodexSessionState): AgentOutput[] {
  const events: AgentOutput[] = [];
  const usage = usageFromCodex(line.usage);
  if (usage !== undefined) events.push({ type: 'usage', timestamp, usage });
  // `codex exec` runs one turn: its end is the session's.
  const result = sessionResult(timestamp, state, false, 'completed');
  if (state.lastText !== undefined) result.result = state.lastText;
  if (usage !== undefined) result.usage = usage;
  events.push(result);
  if (isRecord(line.usage))
    events.push(...unknownFieldsEvent('turn.completed.usage', line.usage, CODEX_USAGE_FIELDS, timestamp));
  return events;
}

// Codex passes a rejected request's body on as the message (`{"error":{"message":…}}`): users read
// the provider's message, and the CLI's text stays in `raw`.
function convertFailure(text: string, timestamp: string, fatal: boolean): AgentOutput {
  const { message } = parseCliApiError(text);
  const event: AgentOutput = { type: 'error', timestamp, ...classifyCodexError(text), message, fatal };
  if (message !== text) event.raw = text;
  return event;
}

function convertLine(line: Line, type: LineType, timestamp: string, state: CodexSessionState): AgentOutput[] {
  switch (type) {
    case 'thread.started': {
      const threadId = optionalString(line.thread_id);
      const start: AgentOutput = { type: 'session_start', timestamp, provider: 'codex' };
      if (threadId !== undefined) {
        state.threadId = threadId;
        start.sessionId = threadId;
      }
      return [start];
    }
    case 'turn.started':
      return [];
    case 'turn.completed':
      return convertTurnCompleted(line, timestamp, state);
    case 'turn.failed': {
      const message =
        (isRecord(line.error) ? optionalString(line.error.message) : undefined) ?? 'Codex turn failed';
      const result = sessionResult(timestamp, state, true, 'failed');
      // Codex repeats the `error` line's message here: the failed result names it already.
      if (message === state.lastErrorMessage) return [result];
      return [convertFailure(message, timestamp, true), result];
    }
    case 'error': {
      // A stream error; Codex may still retry, and says `turn.failed` when it gives up.
      const message = optionalString(line.message) ?? 'Codex CLI reported an error';
      state.lastErrorMessage = message;
      return [convertFailure(message, timestamp, false)];
    }
    default:
      return convertCodexItem(line.item, ITEM_PHASES[type], timestamp, state);
  }
}

/** A stateful converter of Codex CLI's `exec --json` lines into `AgentOutput` events. */
export function createCodexConverter(options: CodexConverterOptions = {}): CodexConverter {
  const now = options.now ?? systemClock;
  const runId = options.runId ?? randomUUID().slice(0, 8);
  const state: CodexSessionState = {
    threadId: undefined,
    lastText: undefined,
    lastErrorMessage: undefined,
    openTools: new Map(),
    todoLists: new Map(),
    callId: (itemId) => `${runId}/${itemId}`,
  };

  const convert = (text: string): AgentOutput[] => {
    if (text.trim() === '') return [];
    const timestamp = now().toISOString();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return [malformedLineEvent(text, timestamp)];
    }
    if (!isRecord(parsed) || !isLineType(parsed.type)) return [unknownEvent(parsed ?? null, timestamp)];
    return [
      ...convertLine(parsed, parsed.type, timestamp, state),
      ...unknownFieldsEvent(parsed.type, parsed, KNOWN_FIELDS[parsed.type], timestamp),
    ];
  };

  return {
    push: neverThrowing(convert, now),
    end: () => [],
  };
}
