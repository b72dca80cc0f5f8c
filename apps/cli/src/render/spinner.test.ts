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
    spinner.start('thinking');
    expect(spinner.active).toBe(true);
    expect(stream.chunks).toEqual([`${CLEAR_LINE}⠋ thinking`]);
    vi.advanceTimersByTime(250);
    expect(stream.chunks.slice(1)).toEqual([`${CLEAR_LINE}⠙ thinking`, `${CLEAR_LINE}⠹ thinking`]);
    spinner.stop();
    expect(spinner.active).toBe(false);
    expect(stream.chunks.at(-1)).toBe(CLEAR_LINE);
    vi.advanceTimersByTime(1_000);
    expect(stream.chunks).toHaveLength(4);
  });

  it('only changes its text when started again while running', () => {
    const stream = captureStream({ isTTY: true });
    const spinner = createSpinner(stream, { enabled: true, colors: plainColors, intervalMs: 100 });
    spinner.start();
    spinner.start('edit_file');
    expect(stream.chunks).toEqual([`${CLEAR_LINE}⠋`]);
    vi.advanceTimersByTime(100);
    expect(stream.chunks.at(-1)).toBe(`${CLEAR_LINE}⠙ edit_file`);
    spinner.stop();
    spinner.stop();
    expect(stream.chunks.filter((chunk) => chunk === CLEAR_LINE)).toHaveLength(1);
  });

  it('fits its text on one line of the terminal', () => {
    const stream = captureStream({ isTTY: true, columns: 12 });
    createSpinner(stream, { enabled: true, colors: plainColors }).start('a long description');
    expect(stream.chunks[0]).toBe(`${CLEAR_LINE}⠋ a long d…`);
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
    expect(stream.chunks[0]).toBe(`${CLEAR_LINE}${ansiColors.cyan('⠋')} ${ansiColors.dim('wait')}`);
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
