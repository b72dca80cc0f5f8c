import type { AgentOutput } from '@cairn/core';

// What the converters stamp a line without a timestamp with while the transcript has told no time
// yet: never a time a transcript records, so such events are told apart and held.
const UNDATED_TIME = 0;
const UNDATED = new Date(UNDATED_TIME).toISOString();

/**
 * The time as the transcript tells it: the timestamp of the latest event. A saved transcript is
 * converted long after it was recorded, so the times of lines without a timestamp of their own
 * (Claude Code stamps only its tool results) and tool durations come from the transcript, not
 * from how fast it is read. Events before the first timestamp are held and get that timestamp,
 * the nearest time recorded; a transcript without any gets `fallback` (when the file was saved).
 */
export class TranscriptClock {
  private latest: number | undefined;
  private readonly held: AgentOutput[] = [];

  constructor(private readonly fallback: () => number) {}

  /** The converters' and the processor's clock. */
  readonly now = (): number => this.latest ?? UNDATED_TIME;

  readonly date = (): Date => new Date(this.now());

  /** `events` as they may go on, each with a time of the transcript: none while only held ones. */
  time(events: readonly AgentOutput[]): AgentOutput[] {
    const timed: AgentOutput[] = [];
    for (const event of events) {
      const time = Date.parse(event.timestamp);
      if (this.latest === undefined && (event.timestamp === UNDATED || Number.isNaN(time))) {
        this.held.push(event);
        continue;
      }
      if (!Number.isNaN(time)) this.latest = time;
      timed.push(...this.release(event.timestamp), event);
    }
    return timed;
  }

  /** The input has ended: events still held get the fallback time. */
  end(): AgentOutput[] {
    this.latest ??= this.fallback();
    return this.release(new Date(this.latest).toISOString());
  }

  private release(timestamp: string): AgentOutput[] {
    return this.held.splice(0).map((event) => ({ ...event, timestamp }));
  }
}
