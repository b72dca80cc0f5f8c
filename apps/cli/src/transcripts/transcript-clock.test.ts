import type { AgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { TranscriptClock } from './transcript-clock.js';

const SAVED = Date.parse('2030-05-06T07:08:09.000Z');
const text = (timestamp: string, id: string): AgentOutput => ({ type: 'text', timestamp, id, text: id });
const times = (events: readonly AgentOutput[]) =>
  events.map((event) => `${event.type === 'text' ? event.id : event.type}@${event.timestamp}`);

describe('TranscriptClock', () => {
  it('holds events stamped before the transcript told a time, then gives them its first one', () => {
    const clock = new TranscriptClock(() => SAVED);
    const undated = () => clock.date().toISOString();

    expect(clock.time([text(undated(), 'a'), text(undated(), 'b')])).toEqual([]);
    expect(times(clock.time([text('2030-01-02T10:00:01.000Z', 'c')]))).toEqual([
      'a@2030-01-02T10:00:01.000Z',
      'b@2030-01-02T10:00:01.000Z',
      'c@2030-01-02T10:00:01.000Z',
    ]);
    // Later lines without a time of their own read the latest one.
    expect(clock.date().toISOString()).toBe('2030-01-02T10:00:01.000Z');
    expect(times(clock.time([text(undated(), 'd')]))).toEqual(['d@2030-01-02T10:00:01.000Z']);
    expect(clock.end()).toEqual([]);
  });

  it('gives a transcript without any time the time it was saved, not the time of the conversion', () => {
    const clock = new TranscriptClock(() => SAVED);

    expect(clock.time([text(clock.date().toISOString(), 'a')])).toEqual([]);
    expect(times(clock.end())).toEqual(['a@2030-05-06T07:08:09.000Z']);
    expect(clock.now()).toBe(SAVED);
  });
});
