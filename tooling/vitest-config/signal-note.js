// vitest globalSetup: a test run ended by a signal writes no report, and the totals then say only
// that it crashed. This says on stderr which signal reached vitest, so the log tells why. Nothing
// else changes: vitest still handles SIGINT and SIGTERM its own way, and a SIGHUP nobody else
// handles still ends the process.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function onSignal(signal) {
  process.stderr.write(
    `\n@cairn/vitest-config: vitest (pid ${process.pid}, parent ${process.ppid}) received ${signal} in ${process.cwd()}; the run ends without its report\n`,
  );
  // The only listener left: re-raise it so the process ends as it would have without this one.
  if (process.listenerCount(signal) === 1) {
    removeSignalNotes();
    process.kill(process.pid, signal);
  }
}

function removeSignalNotes() {
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

export function setup() {
  // In front of vitest's own handler, which exits at once.
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
}

export function teardown() {
  removeSignalNotes();
}
