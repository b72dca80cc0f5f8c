#!/usr/bin/env node
import { runCli } from './cli/program.js';
import { processIO } from './io.js';

// Ctrl-C in a non-interactive command aborts its work (stored as interrupted); a second one exits.
// A command that handles Ctrl-C itself (the chat, when its input is not a terminal) adds its own listener.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (process.listenerCount('SIGINT') > 1) return;
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
});

// A reader that went away (`cairn conversations list | head -1`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

const code = await runCli(process.argv.slice(2), processIO(), controller.signal);
process.exitCode = code;
// Everything is closed by now; a handle some library left open must not keep the process alive.
setTimeout(() => process.exit(code), 3000).unref();
