import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSpinner } from './spinner.js';
import { ansiColors, captureStream, plainColors } from './test-support.js';

const CLEAR_LINE = '\r\u001b[2K';

describe('createSpinner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws a frame on a terminal, a new one each interval, and clears its line when stopped', () => {
    const stream = captureStream({ isTTY: true });
    const spinner = createSpinner(stream, { enabled: true, colors: plainColors, intervalMs: 100 });
    spinner.start('thinking…');
    expect(spinner.active).toBe(true);
    expect(stream.chunks).toEqual([`${CLEAR_LINE}⠋ thinking… (0s)`]);
    vi.advanceTimersByTime(250);
    expect(stream.chunks.slice(1)).toEqual([
      `${CLEAR_LINE}⠙ thinking… (0s)`,
      `${CLEAR_LINE}⠹ thinking… (0s)`,
    ]);
    spinner.stop();
    expect(spinner.active).toBe(false);
    expect(stream.chunks.at(-1)).toBe(CLEAR_LINE);
    vi.advanceTimersByTime(1_000);
    expect(stream.chunks).toHaveLength(4);
  });

  it('says how long it has waited, in whole seconds, then minutes', () => {
    const stream = captureStream({ isTTY: true });
    const spinner = createSpinner(stream, { enabled: true, colors: plainColors, intervalMs: 100 });
    spinner.start('waiting for gpt-5…');
    vi.advanceTimersByTime(2_950);
    expect(stream.chunks.at(-1)).toBe(`${CLEAR_LINE}⠏ waiting for gpt-5… (2s)`);
    vi.advanceTimersByTime(62_000);
    expect(stream.chunks.at(-1)).toMatch(/waiting for gpt-5… \(1m 04s\)$/);
    // Stopped and started again: a new wait, counted from 0.
    spinner.stop();
    spinner.start('waiting for gpt-5…');
    expect(stream.chunks.at(-1)).toBe(`${CLEAR_LINE}⠋ waiting for gpt-5… (0s)`);
  });

  it('only changes its text when started again while running, and counts again for a new text', () => {
    const stream = captureStream({ isTTY: true });
    const spinner = createSpinner(stream, { enabled: true, colors: plainColors, intervalMs: 100 });
    spinner.start();
    expect(stream.chunks).toEqual([`${CLEAR_LINE}⠋ (0s)`]);
    vi.advanceTimersByTime(3_000);
    spinner.start('running edit_file src/a.ts…');
    expect(stream.chunks).toHaveLength(31);
    vi.advanceTimersByTime(100);
    expect(stream.chunks.at(-1)).toBe(`${CLEAR_LINE}⠙ running edit_file src/a.ts… (0s)`);
    // The same text again is the same wait.
    vi.advanceTimersByTime(1_000);
    spinner.start('running edit_file src/a.ts…');
    vi.advanceTimersByTime(100);
    expect(stream.chunks.at(-1)).toMatch(/\(1s\)$/);
    spinner.stop();
    spinner.stop();
    expect(stream.chunks.filter((chunk) => chunk === CLEAR_LINE)).toHaveLength(1);
  });

  it('fits its text on one line of the terminal, never cutting the time', () => {
    const stream = captureStream({ isTTY: true, columns: 24 });
    createSpinner(stream, { enabled: true, colors: plainColors }).start(
      'waiting for a-very-long-model-name…',
    );
    expect(stream.chunks[0]).toBe(`${CLEAR_LINE}⠋ waiting for a-v… (0s)`);
  });

  it('does not keep the process alive', () => {
    const unref = vi.fn();
    const setIntervalSpy = vi
      .spyOn(globalThis, 'setInterval')
      .mockReturnValue({ unref } as unknown as NodeJS.Timeout);
    createSpinner(captureStream({ isTTY: true }), { enabled: true, colors: plainColors }).start();
    expect(unref).toHaveBeenCalledOnce();
    setIntervalSpy.mockRestore();
  });

  it('colours its frame when colour is on', () => {
    const stream = captureStream({ isTTY: true });
    createSpinner(stream, { enabled: true, colors: ansiColors }).start('wait');
    expect(stream.chunks[0]).toBe(`${CLEAR_LINE}${ansiColors.cyan('⠋')} ${ansiColors.dim('wait (0s)')}`);
  });

  it('writes nothing when disabled', () => {
    const stream = captureStream();
    const spinner = createSpinner(stream, { enabled: false, colors: plainColors });
    spinner.start('thinking');
    vi.advanceTimersByTime(1_000);
    spinner.stop();
    expect(spinner.active).toBe(false);
    expect(stream.chunks).toEqual([]);
  });
});
