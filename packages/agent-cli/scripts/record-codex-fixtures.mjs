#!/usr/bin/env node
// Records real Codex CLI runs against the loopback Responses API mock of @cairn/testing, as
// fixtures for the converter tests (packages/agent-cli/fixtures/real/codex/<scenario>.jsonl).
//
//   node packages/agent-cli/scripts/record-codex-fixtures.mjs [scenario…]
//
// Needs root: it re-runs itself under `unshare -n` (a network namespace with only `lo`), so the
// CLI can reach nothing but the mock. The CLI comes from CODEX_BIN (default: the npm install in
// /tmp/ncodex-clis: `npm i @openai/codex@0.171.0`); DEBUG_RECORD=1 echoes its stdout.
// Everything specific to Codex is in `CODEX` below (config file, environment, arguments, scripted
// turns, runs); the rest is a general "mock + CLI + scenario" recorder (`recordFixtures`), which
// record-qwen-code-fixtures.mjs uses for Qwen Code.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- Codex-specific data

const ADD_HELLO = '*** Begin Patch\n*** Add File: hello.txt\n+Hello, world!\n+Second line.\n*** End Patch\n';
const EDIT_HELLO =
  '*** Begin Patch\n*** Update File: hello.txt\n@@\n-Hello, world!\n+Hello, Cairn!\n Second line.\n*** End Patch\n';
const shell = (cmd) => ({ name: 'exec_command', arguments: { cmd } });
const patch = (text) => ({ name: 'apply_patch', arguments: text });

export const CODEX = {
  name: 'codex',
  bin: process.env.CODEX_BIN ?? '/tmp/ncodex-clis/node_modules/.bin/codex',
  provider: 'openai-responses',
  // A model the CLI knows (its metadata declares the freeform apply_patch tool).
  model: 'gpt-5.5',
  /** `$CODEX_HOME/config.toml`: the mock as the model provider, nothing reported anywhere. */
  setup: (home, baseURL) => {
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), codexConfig(baseURL));
  },
  env: (home) => ({
    PATH: process.env.PATH,
    HOME: home,
    CODEX_HOME: join(home, '.codex'),
    OPENAI_API_KEY: 'dummy',
    LANG: 'C.UTF-8',
  }),
  args: ({ prompt, resume }) => [
    'exec',
    ...(resume === undefined ? [] : ['resume', resume]),
    '--json',
    '--skip-git-repo-check',
    // The namespace is the sandbox: Codex's own (seccomp/landlock) is not available in a container.
    '--dangerously-bypass-approvals-and-sandbox',
    '--',
    prompt,
  ],
  /** The scripted model: turn k of each scenario (k = tool outputs since the prompt). */
  scripts: {
    main: [
      { reasoning: 'Create the file first.', text: 'Creating hello.txt.', toolCalls: [patch(ADD_HELLO)] },
      { text: 'Editing it.', toolCalls: [patch(EDIT_HELLO)] },
      { toolCalls: [shell('ls -la')] },
      { text: 'Reading a missing file.', toolCalls: [shell('cat does-not-exist.txt')] },
      { text: 'Done: hello.txt says Hello, Cairn!' },
    ],
    resume: [
      (request) => ({
        text: `I see ${inputCount(request)} input items.`,
        toolCalls: [shell('cat hello.txt')],
      }),
      { text: 'It still says Hello, Cairn!' },
    ],
    apierr: [
      { text: 'Step one.', toolCalls: [shell('echo one')] },
      (_request, attempt) =>
        attempt === 0 ? { fault: { status: 500 } } : { text: 'Step two.', toolCalls: [shell('echo two')] },
      () => ({ fault: { status: 500 } }),
    ],
    err400: [{ fault: { status: 400, message: 'mock: this request is invalid' } }],
    sleep: [{ text: 'Waiting.', toolCalls: [shell('sleep 30')] }, { text: 'Slept.' }],
  },
  runs: [
    {
      file: 'main',
      scenario: 'main',
      prompt: 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.',
    },
    { file: 'resume', scenario: 'resume', prompt: 'Is hello.txt still there?', resumeFrom: 'main' },
    { file: 'apierr-500', scenario: 'apierr', prompt: 'Do two steps.' },
    { file: 'err400', scenario: 'err400', prompt: 'Say hi.' },
    { file: 'sigint-sleep', scenario: 'sleep', prompt: 'Wait.', signal: 'SIGINT' },
    { file: 'sigterm-sleep', scenario: 'sleep', prompt: 'Wait.', signal: 'SIGTERM' },
  ],
  /** True once the line shows the command the abort runs should interrupt. */
  isRunningCommand: (line) => line.includes('"item.started"') && line.includes('"command_execution"'),
  sessionIdOf: (stdout) => /"thread_id":"([^"]+)"/.exec(stdout)?.[1],
};

const codexConfig = (baseURL) => `model = "gpt-5.5"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "Cairn mock"
base_url = "${baseURL}"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
request_max_retries = 2
stream_max_retries = 0

[analytics]
enabled = false

[otel]
exporter = "none"
`;

// Items of the request's input (messages, calls, outputs): shows the resumed history was sent.
function inputCount(request) {
  return Array.isArray(request.body?.input) ? request.body.input.length : 0;
}

// ---------------------------------------------------------------- general recorder

/** Runs `node <entry script> …` again inside `unshare -n` (only `lo`, brought up) unless it is there. */
function inNetworkNamespace() {
  if (process.env.CAIRN_RECORD_NETNS === '1') return;
  const result = spawnSync(
    'unshare',
    ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, CAIRN_RECORD_NETNS: '1' } },
  );
  process.exit(result.status ?? 1);
}

const MARKER = /\[scenario:([\w-]+)\]/g;
// Tool results, in the Responses API's input and in Chat Completions messages.
const isToolOutput = (item) =>
  item.role === 'tool' || item.type === 'function_call_output' || item.type === 'custom_tool_call_output';

/** The scenario of a request (the last marker in a user text) and its turn number (tool outputs since). */
function scenarioTurn(request) {
  const body = request.body ?? {};
  const items = Array.isArray(body.input) ? body.input : Array.isArray(body.messages) ? body.messages : [];
  let scenario;
  let turn = 0;
  for (const item of items) {
    const markers = item.role === 'user' ? [...JSON.stringify(item.content ?? '').matchAll(MARKER)] : [];
    if (markers.length > 0) {
      scenario = markers.at(-1)[1];
      turn = 0;
    } else if (isToolOutput(item)) turn += 1;
  }
  return { scenario, turn };
}

/** `cli.scripts` may be a function of the agent's cwd (for tools that want absolute paths). */
function scriptedTurns(cli, cwd) {
  const scripts = typeof cli.scripts === 'function' ? cli.scripts(cwd) : cli.scripts;
  const attempts = new Map();
  return (request) => {
    const { scenario, turn } = scenarioTurn(request);
    const step = scripts[scenario]?.[turn];
    if (step === undefined)
      return { fault: { status: 400, message: `mock: no turn ${turn} for ${scenario}` } };
    const key = `${scenario}:${turn}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    return typeof step === 'function' ? step(request, attempt) : step;
  };
}

async function record(cli, run, { home, cwd, resume, fixtures, work }) {
  const { startMockProviderServer } = await import('../../testing/dist/index.js');
  const server = await startMockProviderServer({
    provider: cli.provider,
    turns: scriptedTurns(cli, cwd),
    validateRequests: cli.validateRequests ?? true,
  });
  cli.setup(home, server.baseURL);
  const prompt = `${run.prompt} [scenario:${run.scenario}]`;
  const child = spawn(cli.bin, cli.args({ prompt, resume }), {
    cwd,
    env: cli.env(home, server.baseURL),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signalledAt;
  child.stdout.setEncoding('utf8').on('data', (text) => {
    stdout += text;
    if (process.env.DEBUG_RECORD) process.stderr.write(text);
    if (run.signal && signalledAt === undefined && stdout.split('\n').some(cli.isRunningCommand)) {
      signalledAt = Date.now();
      // Two seconds into the command, as a user would press Ctrl-C or a supervisor stop it.
      setTimeout(() => child.kill(run.signal), 2000);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
  });
  const started = Date.now();
  // 'close' comes once the process has exited and its output is fully read.
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  const ms = Date.now() - started;
  // Whether the interrupted command outlived the CLI.
  const orphans = spawnSync('pgrep', ['-f', cli.longCommand ?? 'sleep 30'])
    .stdout.toString()
    .trim();
  await server.close();
  writeFileSync(join(fixtures, `${run.file}.jsonl`), stdout);
  writeFileSync(join(work, `${run.file}.stderr.txt`), stderr);
  writeFileSync(join(work, `${run.file}.requests.json`), JSON.stringify(server.requests, null, 2));
  const afterSignal =
    signalledAt === undefined ? '' : ` exit ${Date.now() - signalledAt - 2000} ms after the signal;`;
  const left = orphans === '' ? '' : `; left running: ${orphans}`;
  const lines = stdout.split('\n').length - 1;
  console.log(
    `${cli.name} ${run.file}: exit ${code} signal ${signal};${afterSignal} ${ms} ms; ${server.requests.length} requests; ${lines} lines${left}`,
  );
  return stdout;
}

/**
 * Records `cli.runs` (those named on the command line, or all) into
 * `fixtures/real/<cli.name>/<run>.jsonl`. The agent works in `/var/tmp/cairn-<name>-fixtures/w/<run>`
 * (outside /tmp: Codex refuses to put its helper binaries under a temporary directory) with a fresh
 * HOME beside it; a resumed run reuses the directory and HOME of the run it resumes.
 */
export async function recordFixtures(cli) {
  inNetworkNamespace();
  const only = new Set(process.argv.slice(2));
  const fixtures = join(here, '..', 'fixtures', 'real', cli.name);
  const work = `/var/tmp/cairn-${cli.name}-fixtures`;
  mkdirSync(fixtures, { recursive: true });
  rmSync(work, { recursive: true, force: true });
  const sessions = new Map();
  for (const run of cli.runs) {
    if (only.size > 0 && !only.has(run.file)) continue;
    const from = run.resumeFrom;
    const label = from ?? run.file;
    const home = join(work, 'homes', label);
    const cwd = join(work, 'w', label);
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    const resume = from === undefined ? undefined : sessions.get(from);
    if (from !== undefined && resume === undefined)
      throw new Error(`${run.file} needs ${from} recorded in the same run`);
    const stdout = await record(cli, run, { home, cwd, resume, fixtures, work });
    sessions.set(run.file, cli.sessionIdOf(stdout));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await recordFixtures(CODEX);
