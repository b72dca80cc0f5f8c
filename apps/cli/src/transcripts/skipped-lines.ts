import type { AgentOutput, ConversationMessage, JsonValue } from '@cairn/core';

// How much of a bad line a report quotes.
const QUOTE_CHARS = 40;

/** A line the converter reported as not JSON (an `error` event keeping the line as `raw`). */
function isBadLineEvent(event: AgentOutput): boolean {
  return event.type === 'error' && event.code === 'LLM_BAD_RESPONSE' && event.raw !== undefined;
}

/**
 * The log message the processor makes of a bad line: an error kept for the record, out of the
 * model's context. Not a converted message.
 */
export function isSkippedLineMessage(message: ConversationMessage): boolean {
  return (
    message.partType === 'error' &&
    message.errorCode === 'LLM_BAD_RESPONSE' &&
    message.includeInContext === false
  );
}

function quote(line: string): string {
  const trimmed = line.trim();
  return JSON.stringify(trimmed.length > QUOTE_CHARS ? `${trimmed.slice(0, QUOTE_CHARS)}…` : trimmed);
}

// What a line the converter kept whole as `unknown` was, for a person.
function describeUnknown(raw: JsonValue): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'not a JSON object';
  if (typeof raw.type !== 'string') return 'an object without a "type"';
  const subtype = typeof raw.subtype === 'string' ? `/${raw.subtype}` : '';
  return `an unknown "${raw.type}${subtype}" line`;
}

interface FirstSkipped {
  line: number;
  reason: string;
}

/**
 * Counts the lines a conversion skipped — not JSON, or JSON the converter does not know (kept only
 * as `unknown` events) — and remembers the first of each kind, for the note and the error.
 */
export class SkippedLines {
  /** Non-blank lines read. */
  total = 0;
  notJson = 0;
  unknown = 0;
  private firstNotJson: FirstSkipped | undefined;
  private firstUnknown: FirstSkipped | undefined;

  /** Records line `number` (1-based) and the events it converted to. */
  record(number: number, line: string, events: readonly AgentOutput[]): void {
    if (line.trim() === '') return;
    this.total++;
    const bad = events.find(isBadLineEvent);
    if (bad !== undefined) {
      this.notJson++;
      this.firstNotJson ??= { line: number, reason: `not JSON: ${quote(line)}` };
      return;
    }
    const [first] = events;
    // Lines the converter knows and maps to nothing (stream framing) give no events: not skipped.
    if (first?.type !== 'unknown' || !events.every((event) => event.type === 'unknown')) return;
    this.unknown++;
    this.firstUnknown ??= { line: number, reason: describeUnknown(first.raw) };
  }

  get count(): number {
    return this.notJson + this.unknown;
  }

  /** "line 3: not JSON: …", the earliest skipped line; undefined when none was. */
  firstProblem(): string | undefined {
    const first = [this.firstNotJson, this.firstUnknown]
      .filter((skipped) => skipped !== undefined)
      .sort((a, b) => a.line - b.line)[0];
    return first === undefined ? undefined : `line ${first.line}: ${first.reason}`;
  }

  /** One line for stderr: how many lines of `label` were skipped, and why. */
  note(label: string, formatName: string): string {
    const kinds: string[] = [];
    if (this.firstNotJson !== undefined) {
      kinds.push(`${this.notJson} not JSON (first: line ${this.firstNotJson.line})`);
    }
    if (this.firstUnknown !== undefined) {
      kinds.push(
        `${this.unknown} not ${formatName} events Cairn converts (first: line ${this.firstUnknown.line}, ${this.firstUnknown.reason})`,
      );
    }
    return `cairn: skipped ${this.count} of ${this.total} lines of ${label}: ${kinds.join('; ')}`;
  }
}
