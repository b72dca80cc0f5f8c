import type { AgentOutput } from '@cairn/core';

/**
 * The time as the transcript tells it: the timestamp of the latest event. A saved transcript is
 * converted long after it was recorded, so tool durations and the times of lines without a
 * timestamp come from the transcript, not from how fast it is read. Before the first timestamp it
 * is the system clock.
 */
export class TranscriptClock {
  private latest: number | undefined;

  observe(event: AgentOutput): void {
    const time = Date.parse(event.timestamp);
    if (!Number.isNaN(time)) this.latest = time;
  }

  readonly now = (): number => this.latest ?? Date.now();

  readonly date = (): Date => new Date(this.now());
}
