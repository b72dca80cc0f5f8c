import { isatty } from 'node:tty';

/** The process as `watchProcessEnd` needs it (the real `process` in the binary). */
export interface WatchedProcess {
  on(event: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: () => void): unknown;
  listenerCount(event: 'SIGINT'): number;
  removeAllListeners(event: 'SIGTERM' | 'SIGHUP'): unknown;
  kill(pid: number, signal: 'SIGTERM' | 'SIGHUP'): unknown;
  exit(code: number): never;
  pid: number;
  exitCode?: number | string | null | undefined;
  stdin: { isTTY?: boolean };
  stdout: NodeJS.EventEmitter;
  stderr: NodeJS.EventEmitter;
}

/** What ended the turn, as the signal's `reason` says it (the CLI names it in the abort's line). */
export type EndReason = 'Ctrl-C' | 'SIGTERM' | 'a hang-up' | 'the output closing';

export interface ProcessEnd {
  /** Aborted (with an `EndReason`) by Ctrl-C, SIGTERM, SIGHUP or a closed stdout: the running turn stops and is stored. */
  signal: AbortSignal;
  /**
   * Ends the process once the command is done: SIGTERM and SIGHUP are raised again with their
   * default action, so the shell sees the signal (143, 129); a closed stdout exits 141 (SIGPIPE's
   * number); otherwise the command's code.
   */
  end(commandCode: number): void;
}

const REASONS = { SIGTERM: 'SIGTERM', SIGHUP: 'a hang-up' } as const;
// A turn that does not wind down this long after SIGTERM/SIGHUP is not waited for.
const WIND_DOWN_MS = 10_000;
// 128 + SIGPIPE: the code a shell reports for a writer whose reader went away.
const OUTPUT_CLOSED_CODE = 141;

// A terminal that went away (EIO) or a reader that left (EPIPE): nobody reads this stream any more.
const isClosedOutput = (error: NodeJS.ErrnoException) => error.code === 'EPIPE' || error.code === 'EIO';

/** The reason an aborted `ProcessEnd` signal carries; undefined for any other abort. */
export function endReason(signal: AbortSignal | undefined): EndReason | undefined {
  const reason: unknown = signal?.aborted === true ? signal.reason : undefined;
  return typeof reason === 'string' ? (reason as EndReason) : undefined;
}

/**
 * Turns every way a process is asked to end into one abort, so the running turn stores what it
 * has (the answer so far and an interrupted record) before the process exits: Ctrl-C (a second
 * one exits at once), SIGTERM and SIGHUP (a second SIGTERM, or 10 s, exits at once), and a stdout
 * whose reader went away (`cairn -p … | head -c 20`). Default handling would kill the process
 * mid-turn, keeping only the prompt.
 */
export function watchProcessEnd(
  proc: WatchedProcess,
  terminalAt: (fd: number) => boolean = isatty,
): ProcessEnd {
  const controller = new AbortController();
  let ending: 'SIGTERM' | 'SIGHUP' | 'EPIPE' | undefined;
  // Whether a SIGTERM or SIGHUP arrived: only a second SIGTERM exits at once (a gone terminal's EIO is no signal).
  let signalled = false;
  const abort = (reason: EndReason) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  // The default action ends the process at once, without Node's own exit work: after a hang-up
  // that work restores the gone terminal's settings, which aborts the process on Node 20 (EIO).
  const raise = (name: 'SIGTERM' | 'SIGHUP') => {
    proc.removeAllListeners(name);
    proc.kill(proc.pid, name);
  };

  // A command that handles Ctrl-C itself (the chat, when its input is not a terminal) adds its own listener.
  proc.on('SIGINT', () => {
    if (proc.listenerCount('SIGINT') > 1) return;
    if (controller.signal.aborted) proc.exit(130);
    abort('Ctrl-C');
  });
  for (const name of ['SIGTERM', 'SIGHUP'] as const) {
    proc.on(name, () => {
      if (signalled) {
        // Only a second SIGTERM is someone insisting. One hang-up often arrives twice (from the
        // kernel to the terminal's foreground group, and from a shell passing it on to its jobs),
        // with nobody there: the wind-down's time limit ends those.
        if (name === 'SIGTERM' && ending !== undefined && ending !== 'EPIPE') raise(ending);
        return;
      }
      signalled = true;
      ending ??= name;
      abort(REASONS[name]);
      setTimeout(() => raise(name), WIND_DOWN_MS).unref();
    });
  }
  proc.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!isClosedOutput(error)) throw error;
    // The terminal went away (EIO): a hang-up whose SIGHUP has not arrived yet, and it ends as one.
    ending ??= error.code === 'EIO' ? 'SIGHUP' : 'EPIPE';
    abort(ending === 'EPIPE' ? 'the output closing' : REASONS[ending]);
  });
  // Nobody reads the diagnostics any more: the command goes on without them.
  proc.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!isClosedOutput(error)) throw error;
  });

  return {
    signal: controller.signal,
    end(commandCode) {
      // The terminal went away and the input ended before the hang-up arrived: it is one all the same.
      if (ending === undefined && proc.stdin.isTTY === true && !terminalAt(0)) ending = 'SIGHUP';
      if (ending === 'SIGTERM' || ending === 'SIGHUP') raise(ending);
      else proc.exitCode = ending === 'EPIPE' ? OUTPUT_CLOSED_CODE : commandCode;
    },
  };
}
