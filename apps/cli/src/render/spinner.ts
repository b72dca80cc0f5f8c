import type { OutputStream } from '../io.js';
import type { Colors } from './colors.js';
import { fitWidth } from './fit-width.js';
import { formatDuration } from './format-duration.js';

export interface Spinner {
  /**
   * Shows the spinner with `text` (what it waits for) and the seconds it has waited; while it
   * runs, only updates the text (and counts again from 0 when the text changes).
   */
  start(text?: string): void;
  /** Stops it and clears its line, so the next write starts on an empty line. */
  stop(): void;
  readonly active: boolean;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
// Back to the start of the line, then erase the whole line.
const CLEAR_LINE = '\r\x1b[2K';
const DEFAULT_INTERVAL_MS = 80;
// A terminal that does not say its width.
const DEFAULT_COLUMNS = 80;

/**
 * A spinner on the current line of a terminal: `⠋ waiting for gpt-5… (3s)`. Disabled (a pipe, a
 * file, `--no-color` tests), it writes nothing. Its timer is unref'd: a spinner left running never
 * keeps the process alive.
 */
export function createSpinner(
  stream: OutputStream,
  options: { enabled: boolean; colors: Colors; intervalMs?: number },
): Spinner {
  const { enabled, colors, intervalMs = DEFAULT_INTERVAL_MS } = options;
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let label = '';
  let since = 0;

  const draw = () => {
    const elapsed = `(${elapsedText(Date.now() - since)})`;
    // One line at most: a wrapped line would survive the clear. The time is never cut.
    const room = (stream.columns ?? DEFAULT_COLUMNS) - 4 - elapsed.length;
    const shown = label === '' ? elapsed : `${fitWidth(label, room)} ${elapsed}`;
    stream.write(`${CLEAR_LINE}${colors.cyan(FRAMES[frame % FRAMES.length] ?? '')} ${colors.dim(shown)}`);
  };

  return {
    start(text = '') {
      if (!enabled) return;
      if (timer === undefined || text !== label) since = Date.now();
      label = text;
      if (timer !== undefined) return;
      frame = 0;
      draw();
      timer = setInterval(() => {
        frame++;
        draw();
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      stream.write(CLEAR_LINE);
    },
    get active() {
      return timer !== undefined;
    },
  };
}

// Whole seconds: a tenth changing every frame would only flicker.
function elapsedText(ms: number): string {
  const seconds = Math.floor(ms / 1_000);
  return seconds < 60 ? `${seconds}s` : formatDuration(seconds * 1_000);
}
