#!/usr/bin/env node
import { runServerCli } from './cli/run-server-cli.js';

process.exitCode = await runServerCli(process.argv, process.env);
