/** The process as `watchProcessEnd` needs it (the real `process` in the binary). */
export interface WatchedProcess {
  on(event: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: () => void): unknown;
  listenerCount(event: 'SIGINT'): number;
  exit(code: number): never;
  stdout: NodeJS.EventEmitter;
  stderr: NodeJS.EventEmitter;
}

export interface ProcessEnd {
  /** Aborted by Ctrl-C, SIGTERM, SIGHUP or a closed stdout: the running turn stops and is stored. */
  signal: AbortSignal;
  /** The exit code: the command's, unless the process was asked to end (128 + the signal's number). */
  exitCode(commandCode: number): number;
}

// 128 + the signal's number, as a shell reports a process the signal ended (EPIPE is SIGPIPE's).
const ENDINGS = { SIGTERM: 143, SIGHUP: 129, EPIPE: 141 } as const;
// A turn that does not wind down this long after SIGTERM/SIGHUP is not waited for.
const WIND_DOWN_MS = 10_000;

// A terminal that went away (EIO) or a reader that left (EPIPE): nobody reads this stream any more.
const isClosedOutput = (error: NodeJS.ErrnoException) => error.code === 'EPIPE' || error.code === 'EIO';

/**
 * Turns every way a process is asked to end into one abort, so the running turn stores what it
 * has (the answer so far and an interrupted record) before the process exits: Ctrl-C (a second
 * one exits at once), SIGTERM and SIGHUP (a second one, or 10 s, exits at once), and a stdout
 * whose reader went away (`cairn -p … | head -c 20`). Default handling would kill the process
 * mid-turn, keeping only the prompt.
 */
export function watchProcessEnd(proc: WatchedProcess): ProcessEnd {
  const controller = new AbortController();
  let ending: keyof typeof ENDINGS | undefined;

  // A command that handles Ctrl-C itself (the chat, when its input is not a terminal) adds its own listener.
  proc.on('SIGINT', () => {
    if (proc.listenerCount('SIGINT') > 1) return;
    if (controller.signal.aborted) proc.exit(ending === undefined ? 130 : ENDINGS[ending]);
    controller.abort();
  });
  for (const name of ['SIGTERM', 'SIGHUP'] as const) {
    proc.on(name, () => {
      if (controller.signal.aborted) proc.exit(ENDINGS[ending ?? name]);
      ending ??= name;
      controller.abort();
      setTimeout(() => proc.exit(ENDINGS[name]), WIND_DOWN_MS).unref();
    });
  }
  proc.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!isClosedOutput(error)) throw error;
    ending ??= 'EPIPE';
    controller.abort();
  });
  // Nobody reads the diagnostics any more: the command goes on without them.
  proc.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!isClosedOutput(error)) throw error;
  });

  return {
    signal: controller.signal,
    exitCode: (commandCode) => (ending === undefined ? commandCode : ENDINGS[ending]),
  };
}
