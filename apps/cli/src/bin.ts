#!/usr/bin/env node
import { runCli } from './cli/program.js';
import { processIO } from './io.js';

// Ctrl-C in a non-interactive command aborts its work (stored as interrupted); a second one exits.
// The interactive chat reads Ctrl-C itself, from the terminal, so this handler never sees it there.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
});

const code = await runCli(process.argv.slice(2), processIO(), controller.signal);
process.exitCode = code;
// Everything is closed by now; a handle some library left open must not keep the process alive.
setTimeout(() => process.exit(code), 3000).unref();
