import type { AgentOutput, JsonValue } from '@cairn/core';
import { usageFromJsonStats } from './convert-gemini-cli-stats.js';
import {
  type Clock,
  isRecord,
  malformedLineEvent,
  systemClock,
  unknownEvent,
  unknownFieldsEvent,
} from './gemini-cli-event-factory.js';

export interface GeminiCliResultOptions {
  /** Time for every event: the json result carries no timestamps. Defaults to the system clock. */
  now?: Clock;
}

const RESULT_FIELDS = new Set(['session_id', 'response', 'stats', 'error']);

/**
 * Converts the single object Gemini CLI prints with `--output-format json` (`session_id`,
 * `response`, `stats`, `error`). Accepts the object or its JSON text. Never throws.
 */
export function convertGeminiCliResult(json: unknown, options: GeminiCliResultOptions = {}): AgentOutput[] {
  const now = options.now ?? systemClock;
  const timestamp = now().toISOString();
  let value = json;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [malformedLineEvent(value as string, timestamp)];
    }
  }
  if (!isRecord(value)) return [unknownEvent((value ?? null) as JsonValue, timestamp)];

  const events: AgentOutput[] = [];
  const sessionId = typeof value.session_id === 'string' ? value.session_id : undefined;
  const start: AgentOutput = { type: 'session_start', timestamp, provider: 'gemini-cli' };
  if (sessionId !== undefined) start.sessionId = sessionId;
  events.push(start);

  const response = typeof value.response === 'string' ? value.response : undefined;
  if (response !== undefined && response !== '')
    events.push({ type: 'text', timestamp, id: 'text-1', text: response });

  const usage = usageFromJsonStats(value.stats);
  if (usage !== undefined) events.push({ type: 'usage', timestamp, usage });

  const error = isRecord(value.error) ? value.error : undefined;
  if (error !== undefined) {
    events.push({
      type: 'error',
      timestamp,
      code: 'AGENT_FAILED',
      message: typeof error.message === 'string' ? error.message : 'Gemini CLI reported an error',
      retryable: false,
      fatal: true,
    });
  }

  const result: Extract<AgentOutput, { type: 'session_result' }> = {
    type: 'session_result',
    timestamp,
    isError: error !== undefined,
  };
  if (sessionId !== undefined) result.sessionId = sessionId;
  if (response !== undefined) result.result = response;
  if (usage !== undefined) result.usage = usage;
  events.push(result, ...unknownFieldsEvent(value, RESULT_FIELDS, timestamp));
  return events;
}
