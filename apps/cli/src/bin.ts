#!/usr/bin/env node
import { runCli } from './cli/program.js';
import { processIO } from './io.js';
import { watchProcessEnd } from './process-end.js';

// Ctrl-C, SIGTERM, SIGHUP and a closed stdout abort the running turn, which is stored before the exit.
const ending = watchProcessEnd(process);
ending.end(await runCli(process.argv.slice(2), processIO(), ending.signal));
// Everything is closed by now; a handle some library left open must not keep the process alive.
setTimeout(() => process.exit(), 3000).unref();
