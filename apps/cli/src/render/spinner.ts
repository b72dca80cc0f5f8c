import type { OutputStream } from '../io.js';
import type { Colors } from './colors.js';

export interface Spinner {
  /** Shows the spinner (with `text` after it); while it runs, only updates the text. */
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
 * A spinner on the current line of a terminal. Disabled (a pipe, a file, `--no-color` tests), it
 * writes nothing. Its timer is unref'd: a spinner left running never keeps the process alive.
 */
export function createSpinner(
  stream: OutputStream,
  options: { enabled: boolean; colors: Colors; intervalMs?: number },
): Spinner {
  const { enabled, colors, intervalMs = DEFAULT_INTERVAL_MS } = options;
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let label = '';

  const draw = () => {
    // One line at most: a wrapped line would survive the clear.
    const room = (stream.columns ?? DEFAULT_COLUMNS) - 3;
    const text =
      label === '' ? '' : ` ${colors.dim(label.length > room ? `${label.slice(0, room - 1)}…` : label)}`;
    stream.write(`${CLEAR_LINE}${colors.cyan(FRAMES[frame % FRAMES.length] ?? '')}${text}`);
  };

  return {
    start(text = '') {
      if (!enabled) return;
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
