// A stand-in for `claude` / `gemini`: a real executable that replays a transcript captured from the
// real CLI (the fixtures beside their converters), with the directory it was captured in replaced
// by its own working directory, so the session it reports can be resumed from there.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const fixture = (path: string) => fileURLToPath(new URL(`../../../../packages/${path}`, import.meta.url));

/** Claude Code creates hello.txt, edits it, lists the directory, fails to read a missing file, answers. */
export const CLAUDE_TRANSCRIPT = {
  file: fixture('agent-cli/src/claude-code/__fixtures__/stream.jsonl'),
  recordedCwd: '/home/dev/work-claude-stream',
  sessionId: 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490',
};
/** Gemini CLI does the same work. */
export const GEMINI_TRANSCRIPT = {
  file: fixture('agent-cli/src/gemini-cli/__fixtures__/stream.jsonl'),
  recordedCwd: '/home/dev/work-gemini-stream',
  sessionId: '36d01c64-f5ba-4a5c-86ac-75956eb73cfb',
};
/** The prompt both transcripts answer (Gemini CLI echoes it). */
export const TRANSCRIPT_PROMPT =
  'Create hello.txt containing a greeting, change the greeting, list the directory, then check whether does-not-exist.txt exists.';

export interface FakeAgentBehaviour {
  transcript: { file: string; recordedCwd: string };
  /** Each run appends `{ args, cwd, secrets }` here as a JSON line (secrets: which of the watched variables it was given). */
  argvFile: string;
  /** Holds its last line back until this file exists: the test says when the run may end. */
  releaseFile?: string;
  /** After `lines` lines (all by default), never exit until killed. */
  hang?: boolean;
  lines?: number;
  stderr?: string;
  exitCode?: number;
}

// CommonJS (the file has no extension); the behaviour is baked in, so nothing depends on the
// environment the server passes on.
const script = (behaviour: FakeAgentBehaviour) => `#!${process.execPath}
const fs = require('node:fs');
const config = ${JSON.stringify(behaviour)};
const secrets = ['CAIRN_API_TOKEN', 'DATABASE_URL', 'OPENAI_API_KEY', 'PGPASSWORD', 'AGENT_KEY'].filter((name) => name in process.env);
fs.appendFileSync(config.argvFile, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), secrets, traceparent: process.env.TRACEPARENT }) + '\\n');
const lines = fs
  .readFileSync(config.transcript.file, 'utf8')
  .split(config.transcript.recordedCwd)
  .join(process.cwd())
  .split('\\n')
  .filter((line) => line !== '')
  .slice(0, config.lines ?? undefined);
let index = 0;
// Calls \`then\` once config.releaseFile exists (at once without one), woken by the file system.
function whenReleased(then) {
  const file = config.releaseFile;
  if (!file || fs.existsSync(file)) return then();
  let done = false;
  const check = () => {
    if (done || !fs.existsSync(file)) return;
    done = true;
    watcher.close();
    then();
  };
  const watcher = fs.watch(require('node:path').dirname(file), check);
  check();
}
function next() {
  if (index < lines.length) {
    const write = () => process.stdout.write(lines[index++] + '\\n', next);
    if (index === lines.length - 1) whenReleased(write);
    else write();
    return;
  }
  if (config.hang) return void setInterval(() => {}, 1 << 30);
  if (config.stderr) process.stderr.write(config.stderr);
  process.exitCode = config.exitCode ?? 0;
}
next();
`;

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-server-agent-'));
  dirs.push(dir);
  return dir;
}

/** The fake agent as an executable `name` in `dir`. */
export async function installFakeAgent(
  dir: string,
  name: string,
  behaviour: FakeAgentBehaviour,
): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, script(behaviour));
  await chmod(path, 0o755);
  return path;
}

/** What each run of a fake agent got: its arguments and working directory. */
export async function readRuns(argvFile: string): Promise<{ args: string[]; cwd: string }[]> {
  let text: string;
  try {
    text = await readFile(argvFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { args: string[]; cwd: string });
}
