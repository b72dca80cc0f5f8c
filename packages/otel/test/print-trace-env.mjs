#!/usr/bin/env node
// A stand-in agent CLI (Claude Code's stream-json): writes the trace context it was given
// (TRACEPARENT, TRACESTATE) to $TRACE_ENV_FILE, then reports a successful result.
import { writeFileSync } from 'node:fs';

const { TRACEPARENT = null, TRACESTATE = null, TRACE_ENV_FILE } = process.env;
writeFileSync(TRACE_ENV_FILE, JSON.stringify({ TRACEPARENT, TRACESTATE }));
const session = 'a6f1c2d4-0000-4000-8000-000000000001';
const lines = [
  {
    type: 'system',
    subtype: 'init',
    cwd: process.cwd(),
    session_id: session,
    tools: [],
    model: 'claude-sonnet-4-5',
  },
  {
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    result: 'done',
    session_id: session,
    usage: { input_tokens: 12, output_tokens: 3 },
  },
];
for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
