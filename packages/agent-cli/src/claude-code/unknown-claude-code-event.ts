import type { AgentOutput, JsonValue } from '@cairn/core';
import {
  CLAUDE_CODE_SOURCE,
  type ClaudeCodeEventContext,
  type EventBase,
  eventOf,
  type JsonObject,
} from './claude-code-event-context.js';

/**
 * A copy of `value` that JSON can hold: values it cannot (undefined, functions, cycles) are replaced.
 * For input that did not come from `JSON.parse` (`convertClaudeCodeResult`'s argument).
 */
export function toJsonValue(value: unknown): JsonValue {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as JsonValue);
  } catch {
    return String(value);
  }
}

/**
 * Output the converter does not recognise, kept whole. `raw` is part of a parsed line, so it is
 * JSON already and is kept as is: no copy on a path that runs for most lines.
 */
export function unknownClaudeCodeEvent(raw: JsonValue, context: EventBase): AgentOutput {
  // `{ type: 'unknown', ...context, source, raw }`, built field by field: a spread before more
  // fields is slow in V8, and this runs for several lines of every session.
  const event = eventOf('unknown', context);
  event.source = CLAUDE_CODE_SOURCE;
  event.raw = raw;
  return event;
}

// Bookkeeping every line may carry: no information a consumer lacks once the line is converted.
const ENVELOPE_FIELDS = [
  'type',
  'subtype',
  'uuid',
  'session_id',
  'parent_tool_use_id',
  'timestamp',
  'request_id',
];

/**
 * The fields a conversion maps, with the envelope every line carries: made once per kind of line.
 * It also remembers the known keys of the last line it checked, in that line's order: lines of one
 * kind repeat their keys in the same order, and comparing a key with the one in the same place
 * (both are internalized strings) costs much less than a set lookup, which showed in profiles.
 */
export class KnownClaudeCodeFields {
  private readonly names: ReadonlySet<string>;
  private readonly recent: string[] = [];

  constructor(mapped: readonly string[]) {
    this.names = new Set([...ENVELOPE_FIELDS, ...mapped]);
  }

  /** The own fields of `line` that are not known; undefined when there are none (the usual case). */
  unknownFields(line: JsonObject): JsonObject | undefined {
    const recent = this.recent;
    let fields: JsonObject | undefined;
    let at = 0;
    for (const key in line) {
      if (key === recent[at]) {
        at++;
        continue;
      }
      if (this.names.has(key)) {
        // Dense: `at` is at most the list's length.
        recent[at++] = key;
        continue;
      }
      if (!Object.hasOwn(line, key)) continue;
      fields ??= {};
      fields[key] = line[key] as JsonValue;
    }
    return fields;
  }
}

/** The fields a conversion maps, with the envelope every line carries. */
export function knownClaudeCodeFields(mapped: readonly string[]): KnownClaudeCodeFields {
  return new KnownClaudeCodeFields(mapped);
}

/**
 * The fields of a recognised line that the conversion did not map (`known` has the others), as one
 * `unknown` event (`raw: { type, subtype?, fields }`), so data a newer CLI adds is kept, not
 * dropped. None when every field was mapped.
 */
export function unmappedClaudeCodeFields(
  line: JsonObject,
  known: KnownClaudeCodeFields,
  context: ClaudeCodeEventContext,
): AgentOutput[] {
  const events: AgentOutput[] = [];
  addUnmappedClaudeCodeFields(events, line, known, context);
  return events;
}

/** Appends `unmappedClaudeCodeFields` to `events`: no array made for the usual none. */
export function addUnmappedClaudeCodeFields(
  events: AgentOutput[],
  line: JsonObject,
  known: KnownClaudeCodeFields,
  context: ClaudeCodeEventContext,
): void {
  // Called for most lines, which have no such field: nothing is allocated until one is found.
  const fields = known.unknownFields(line);
  if (fields === undefined) return;
  const kind: JsonObject = { type: line.type ?? null, fields };
  if (line.subtype !== undefined) kind.subtype = line.subtype;
  events.push(unknownClaudeCodeEvent(kind, context));
}
