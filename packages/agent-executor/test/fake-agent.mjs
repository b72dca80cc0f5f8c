#!/usr/bin/env node
// A stand-in for `claude` / `gemini` in tests: a real process that replays a recorded stream-json
// transcript, driven by environment variables (all optional):
//   FAKE_AGENT_FIXTURE         transcript to replay, one line at a time
//   FAKE_AGENT_DELAY_MS        pause before each line
//   FAKE_AGENT_CHUNKED=1       write each line in small pieces (exercises line splitting)
//   FAKE_AGENT_LINES=N         replay only the first N lines
//   FAKE_AGENT_CUT=1           then write half of the next line, without its line break
//   FAKE_AGENT_PRINT           extra raw text written to stdout after the transcript
//   FAKE_AGENT_STDERR          text written to stderr before exiting
//   FAKE_AGENT_EXIT_CODE       exit code (default 0)
//   FAKE_AGENT_KILL_SELF       a signal the process sends itself instead of exiting (SIGKILL, …)
//   FAKE_AGENT_IGNORE_SIGNALS=1  SIGINT and SIGTERM do nothing (the executor must escalate to SIGKILL)
//   FAKE_AGENT_HANG=1          never exit after the transcript (until killed)
//   FAKE_AGENT_ORPHAN=1        leave a background process holding stdout open for 10 min
//   FAKE_AGENT_ORPHAN_PID_FILE where to write that process's pid (so the test can kill it)
//   FAKE_AGENT_ARGV_FILE       the arguments it got, written as JSON (appended, one line per run)
//   FAKE_AGENT_CWD_FILE        its working directory and FAKE_AGENT_ENV_PROBE's value, as JSON
// Stopping, as the real CLIs do it (see the executor README's "Abort"):
//   FAKE_AGENT_PID_FILE        its pid, appended (a re-launched agent appends its child's too)
//   FAKE_AGENT_RELAUNCH=1      like Gemini CLI: unless GEMINI_CLI_NO_RELAUNCH is set, run the agent
//                              as a child of this process, which ignores SIGINT/SIGTERM and forwards
//                              no signal, and exit with the child's code
//   FAKE_AGENT_TOOL=1          after the transcript, start a "tool" (a `sleep`-like child) and wait
//   FAKE_AGENT_TOOL_DETACHED=1 the tool runs in a process group of its own (as Gemini CLI's shell)
//   FAKE_AGENT_TOOL_STUBBORN=1 the tool ignores SIGINT, SIGTERM and SIGHUP
//   FAKE_AGENT_TOOL_PID_FILE   where to write the tool's pid
//   FAKE_AGENT_ON_SIGTERM=continue  like Claude Code: SIGTERM kills only the tool, then the agent
//                              goes on: writes the rest of the transcript (after FAKE_AGENT_LINES)
//                              and exits with FAKE_AGENT_EXIT_CODE
//   FAKE_AGENT_ON_SIGINT       a file of lines written on SIGINT, then exit FAKE_AGENT_SIGINT_EXIT_CODE
//                              (default 1); the tool is killed first. Empty file: exit at once
//                              (Gemini CLI: 0, no result line)
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { simulatedDelay } from '@cairn/testing';

const env = process.env;
if (env.FAKE_AGENT_PID_FILE) appendFileSync(env.FAKE_AGENT_PID_FILE, `${process.pid}\n`);
if (env.FAKE_AGENT_RELAUNCH === '1' && !env.GEMINI_CLI_NO_RELAUNCH) {
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => {});
  const agent = spawn(process.execPath, process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...env, GEMINI_CLI_NO_RELAUNCH: 'true' },
  });
  agent.on('exit', (code) => process.exit(code ?? 1));
  await new Promise(() => {});
}
if (env.FAKE_AGENT_IGNORE_SIGNALS === '1')
  for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => {});
if (env.FAKE_AGENT_ARGV_FILE) {
  appendFileSync(env.FAKE_AGENT_ARGV_FILE, `${JSON.stringify(process.argv.slice(2))}\n`);
}
if (env.FAKE_AGENT_CWD_FILE) {
  writeFileSync(
    env.FAKE_AGENT_CWD_FILE,
    JSON.stringify({ cwd: process.cwd(), probe: env.FAKE_AGENT_ENV_PROBE ?? null }),
  );
}

const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
const delayMs = Number(env.FAKE_AGENT_DELAY_MS ?? 0);
const lines = env.FAKE_AGENT_FIXTURE
  ? readFileSync(env.FAKE_AGENT_FIXTURE, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
  : [];
const count = env.FAKE_AGENT_LINES === undefined ? lines.length : Number(env.FAKE_AGENT_LINES);

for (const line of lines.slice(0, count)) {
  if (delayMs > 0) await simulatedDelay(delayMs);
  if (env.FAKE_AGENT_CHUNKED === '1') {
    for (let start = 0; start < line.length; start += 7) await write(line.slice(start, start + 7));
    await write('\n');
  } else {
    await write(`${line}\n`);
  }
}
if (env.FAKE_AGENT_CUT === '1') {
  const next = lines[count] ?? '{"type":"assistant","message":{"content":[{"type":"text","text":"cut';
  await write(next.slice(0, Math.floor(next.length / 2)));
}
if (env.FAKE_AGENT_PRINT) await write(env.FAKE_AGENT_PRINT);
if (env.FAKE_AGENT_STDERR)
  await new Promise((resolve) => process.stderr.write(env.FAKE_AGENT_STDERR, resolve));
let tool;
const startTool = () => {
  const ignore =
    env.FAKE_AGENT_TOOL_STUBBORN === '1'
      ? "for (const s of ['SIGINT','SIGTERM','SIGHUP']) process.on(s, () => {});"
      : '';
  tool = spawn(process.execPath, ['-e', `${ignore} setInterval(() => {}, 1 << 30);`], {
    stdio: 'ignore',
    detached: env.FAKE_AGENT_TOOL_DETACHED === '1',
  });
  if (env.FAKE_AGENT_TOOL_PID_FILE) writeFileSync(env.FAKE_AGENT_TOOL_PID_FILE, String(tool.pid));
};
if (env.FAKE_AGENT_ON_SIGTERM === 'continue') {
  process.on('SIGTERM', async () => {
    tool?.kill('SIGKILL');
    for (const line of lines.slice(count)) await write(`${line}\n`);
    process.exit(Number(env.FAKE_AGENT_EXIT_CODE ?? 0));
  });
}
if (env.FAKE_AGENT_ON_SIGINT) {
  const onSigint = readFileSync(env.FAKE_AGENT_ON_SIGINT, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  process.on('SIGINT', async () => {
    // Gemini CLI leaves its (detached) shell command running; Claude Code kills it.
    if (env.FAKE_AGENT_TOOL_DETACHED !== '1') tool?.kill('SIGKILL');
    for (const line of onSigint) await write(`${line}\n`);
    process.exit(Number(env.FAKE_AGENT_SIGINT_EXIT_CODE ?? 1));
  });
}
if (env.FAKE_AGENT_TOOL === '1') startTool();
if (env.FAKE_AGENT_ORPHAN === '1') {
  const orphan = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], {
    stdio: 'inherit',
    detached: true,
  });
  if (env.FAKE_AGENT_ORPHAN_PID_FILE) writeFileSync(env.FAKE_AGENT_ORPHAN_PID_FILE, String(orphan.pid));
  orphan.unref();
}
if (env.FAKE_AGENT_KILL_SELF) process.kill(process.pid, env.FAKE_AGENT_KILL_SELF);
if (env.FAKE_AGENT_HANG === '1' || env.FAKE_AGENT_TOOL === '1') setInterval(() => {}, 1 << 30);
else process.exitCode = Number(env.FAKE_AGENT_EXIT_CODE ?? 0);
