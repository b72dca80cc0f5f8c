#!/usr/bin/env node
// Records fixtures/real/<cli>/<fixture>.jsonl from the real agent CLIs pinned in the `agent-clis` pnpm
// catalog (Claude Code, Gemini CLI, Codex CLI, Qwen Code), each run offline against the scripted stand-in of its vendor API (@cairn/testing/agent-clis),
// and writes fixtures/real/manifest.json and fixtures/real/README.md.
//
//   pnpm --filter @cairn/agent-cli fixtures:record                  every CLI, every fixture
//   pnpm --filter @cairn/agent-cli fixtures:record claude-code/deny  only these (others stay as recorded)
//
// Needs @cairn/testing built (`pnpm --filter @cairn/testing build`).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  agentCliFixturePlans,
  agentCliIsolation,
  agentCliOfflineEnvironment,
  agentClis,
  resolveAgentCli,
  runAgentCliScenario,
  scrubMachinePaths,
} from '@cairn/testing/agent-clis';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
// The checkout the CLIs are installed in: stack traces on stderr name it.
const workspaceDirectory = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const fixturesDirectory = join(packageDirectory, 'fixtures', 'real');
const manifestPath = join(fixturesDirectory, 'manifest.json');
// A fixed parent, so the scrubbed placeholder (`/tmp/cairn-agent-cli-XXXXXX`) is the same on every machine.
const RUN_PARENT = '/tmp';

// What the table does not show: each CLI's settings, and the format facts its fixtures taught
// (Claude Code's and Gemini CLI's are in the issue's shared capture notes, fixtures/real-cli-2).
const CLI_NOTES = {
  'claude-code': `A fresh \`HOME\` whose \`.claude/settings.json\` allows the run's permissions (also passed as
\`--allowedTools\`); the native binary of the platform package \`@anthropic-ai/claude-code-<platform>\`.`,
  'gemini-cli': `A fresh \`HOME\` whose \`.gemini/settings.json\` selects \`gemini-api-key\` auth, turns usage
statistics, telemetry and auto-update off and, without \`--yolo\`, lists the allowed tools in \`tools.allowed\`.
Its API retries show only on stderr (\`Attempt N failed with status 503. Retrying with backoff...\` and a
stack trace): \`apierr.stderr.txt\` is what the executor's stderr converter reads.`,
  codex: `\`codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -- <prompt>\`
(the namespace is the sandbox: Codex's own, seccomp/landlock, is not available in a container), run
through the package's Node launcher. A fresh \`CODEX_HOME\` (\`home/.codex\`) whose \`config.toml\` makes
the stand-in the model provider (\`wire_api = "responses"\`, \`request_max_retries = 2\`,
\`stream_max_retries = 0\`, analytics and OpenTelemetry off), model \`gpt-5.5\` (a model Codex knows: its
metadata gives the freeform \`apply_patch\` tool), and a \`TMPDIR\` in the run's \`HOME\` (Codex will not put
its helper binaries under the temporary directory the run's directory is in).

- Lines: \`thread.started {thread_id}\`, \`turn.started\`, \`item.started|item.updated|item.completed {item}\`,
  \`turn.completed {usage}\`, \`turn.failed {error:{message}}\`, \`error {message}\`. No line has a timestamp.
- \`thread_id\` is a UUIDv7; \`exec resume <id>\` keeps it and sends the whole history again (\`store: false\`,
  no \`previous_response_id\`). Item ids are \`item_<n>\`, numbered per process (a resumed run starts at \`item_0\`).
- \`agent_message\` and \`reasoning\` come only as \`item.completed\`, whole (no deltas); \`reasoning.text\` is
  the reasoning summary.
- \`command_execution\`: \`item.started\` with \`aggregated_output: ""\`, \`exit_code: null\`,
  \`status: "in_progress"\`; \`item.completed\` with the output (stdout and stderr together), the exit code and
  \`status: "completed"\`, or \`"failed"\` when the exit code is not 0. The command is the shell line Codex
  ran: \`/bin/bash -lc '<cmd>'\`.
- \`file_change\`: \`changes: [{path (absolute), kind: add|update|delete}]\`, \`status\`; 0.171.0 writes **no
  diff** on the line, so a converter can only name the files.
- \`usage\` in \`turn.completed\` (\`input_tokens\` with cached ones, \`cached_input_tokens\`,
  \`cache_write_input_tokens\`, \`output_tokens\` with reasoning, \`reasoning_output_tokens\`) is the thread's
  total so far, not the turn's: a resumed run reports the earlier runs' tokens plus its own.
- A 5xx is retried (\`request_max_retries\`); when retries run out, an \`error\` line with Codex's own text
  and a \`turn.failed\` with the same message (for a 503 it names the stand-in's URL, whose port differs
  from run to run), exit 1. A 400 is not retried: \`error\` and \`turn.failed\` carry
  the API's error body as JSON text.
- Abort: SIGINT ends the CLI at once, exit 1, with **no** further line (the command's item is never
  completed, no \`turn.failed\`); SIGTERM kills it (default action). stderr says
  \`Reading additional input from stdin...\` even with stdin \`/dev/null\`.`,
  'qwen-code': `\`qwen --output-format stream-json --yolo --prompt=<prompt>\` (after \`--\` 0.15.10 finds no prompt:
"No input provided via stdin"), run with this Node, against the OpenAI Chat Completions stand-in. A fresh
\`HOME\` whose \`.qwen/settings.json\` selects OpenAI auth and turns usage statistics, telemetry and
auto-update off; \`OPENAI_API_KEY=dummy\`, \`OPENAI_BASE_URL=<stand-in>/v1\`, \`OPENAI_MODEL=qwen3-coder-plus\`.

- The stream is **Claude Code's stream-json format**: \`system\`/\`init\` (\`session_id\`, \`cwd\`, \`tools\`,
  \`model\`, \`permission_mode\`, \`qwen_code_version\`, …), \`assistant\` lines with one content block each
  (text, \`tool_use\`), \`user\` lines with \`tool_result\` blocks, a final \`result\` (\`subtype\`, \`is_error\`,
  \`num_turns\`, \`result\`, \`usage\`, \`permission_denials\`). No line has a timestamp.
- Tool names are Gemini CLI's, except \`edit\` (Gemini's \`replace\`) and \`todo_write\`: \`write_file\`,
  \`edit {file_path, old_string, new_string}\`, \`read_file {file_path}\` (absolute paths required),
  \`run_shell_command {command, is_background?}\`, \`list_directory\`, \`grep_search\`, \`glob\`, \`web_fetch\`,
  \`todo_write\`, \`agent\`, \`skill\`, …; a missing file is a \`tool_result\` with \`is_error: true\`,
  \`"File not found: <abs path>"\`.
- **An API error is not an error in the stream**: an \`assistant\` text \`"[API Error: 400 <message>]"\` and a
  \`result\` with \`subtype: "success"\`, \`is_error: false\`, exit code 0.
- \`--resume=<session id>\` keeps the id and replays the history to the model.
- \`run_shell_command\` refuses \`sleep 30\` and \`sleep 30 && …\` ("Blocked: … Run blocking commands in the
  background …"): the abort fixtures run a Python sleep (scenario \`sleep-python\`).
- It relaunches itself as a child \`node\` with a larger heap (\`--max-old-space-size\`, when half the
  machine's memory is more than the heap limit). The launcher has no signal handler: SIGINT or SIGTERM
  to the CLI process (\`sigint-sleep\`, \`sigterm-sleep\`) ends it at once, with no further line, while the
  relaunched child, the real CLI, runs on unless its whole process group is signalled (the harness
  kills the group once the launcher exits). A recorder that waits for stdout to close sees that orphan
  finish the command and the turn into the inherited pipe, as if the signal had been ignored.`,
};

const only = process.argv.slice(2);
const wanted = (cli, fixture) =>
  only.length === 0 || only.some((item) => item === cli || item === `${cli}/${fixture}`);

function cliVersion(cli) {
  const resolved = resolveAgentCli(cli, import.meta.url);
  const env = agentCliOfflineEnvironment({
    home: join(RUN_PARENT, 'cairn-agent-cli-version-home'),
    origin: 'http://127.0.0.1:9',
  });
  const result = spawnSync(resolved.command, [...resolved.args, '--version'], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return (
    (result.stdout || '').trim() || `${resolved.version} (--version printed nothing: ${result.stderr.trim()})`
  );
}

async function readManifest() {
  try {
    return JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch {
    return { clis: {}, fixtures: [] };
  }
}

const manifest = await readManifest();
// Entries of fixtures no plan records any more (a renamed or dropped fixture) go.
manifest.fixtures = manifest.fixtures.filter((entry) =>
  agentCliFixturePlans[entry.cli]?.some((plan) => plan.fixture === entry.fixture),
);
const isolation = agentCliIsolation();
for (const [name, plans] of Object.entries(agentCliFixturePlans)) {
  const cli = agentClis[name];
  if (!plans.some((plan) => wanted(name, plan.fixture))) continue;
  const version = cliVersion(cli);
  manifest.clis[name] = {
    package: cli.packageName,
    version: resolveAgentCli(cli, import.meta.url).version,
    versionOutput: version,
  };
  console.log(`${name}: ${version}`);
  await mkdir(join(fixturesDirectory, name), { recursive: true });
  const roots = new Map();
  const sessions = new Map();
  for (const plan of plans) {
    // A resumed fixture needs the run it resumes, recorded or not.
    const needed =
      wanted(name, plan.fixture) ||
      plans.some((later) => later.resumes === plan.fixture && wanted(name, later.fixture));
    if (!needed) continue;
    const root =
      plan.resumes === undefined
        ? await mkdtemp(join(RUN_PARENT, 'cairn-agent-cli-'))
        : roots.get(plan.resumes);
    if (root === undefined)
      throw new Error(`${name}/${plan.fixture} resumes ${plan.resumes}, which did not run`);
    roots.set(plan.fixture, root);
    const started = Date.now();
    const { fixture: _fixture, resumes, note: _note, timeoutMs, recordStderr, ...run } = plan;
    const result = await runAgentCliScenario({
      cli,
      callerUrl: import.meta.url,
      root,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      run: resumes === undefined ? run : { ...run, resumeSessionId: sessions.get(resumes) },
    });
    sessions.set(plan.fixture, result.sessionId);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `  ${plan.fixture}: exit ${result.code ?? result.signal}, ${result.stdout.length} bytes, ${result.requests.length} requests, ${seconds}s`,
    );
    if (result.timedOut) throw new Error(`${name}/${plan.fixture} timed out\n${result.stderr}`);
    if (!wanted(name, plan.fixture)) continue;
    const file = `${name}/${plan.fixture}.jsonl`;
    const scrub = (text) => scrubMachinePaths(text, root, { workspace: workspaceDirectory });
    await writeFile(join(fixturesDirectory, file), scrub(result.stdout.toString('utf8')));
    const stderrFile = `${name}/${plan.fixture}.stderr.txt`;
    if (recordStderr) await writeFile(join(fixturesDirectory, stderrFile), scrub(result.stderr));
    const command = result.command.map(scrub);
    const programArgs = command.slice(
      command.length -
        cli.args({
          prompt: plan.prompt,
          permissions: plan.permissions,
          ...(resumes ? { resumeSessionId: result.sessionId ?? '' } : {}),
        }).length,
    );
    manifest.fixtures = manifest.fixtures.filter((entry) => entry.file !== file);
    manifest.fixtures.push({
      file,
      cli: name,
      fixture: plan.fixture,
      scenario: plan.scenario,
      command: [cli.programName, ...programArgs],
      permissions: plan.permissions,
      env: result.envNames,
      ...(plan.env ? { extraEnv: plan.env } : {}),
      ...(plan.resumes ? { resumes: plan.resumes } : {}),
      ...(plan.interrupt ? { interrupt: plan.interrupt } : {}),
      exitCode: result.code,
      signal: result.signal,
      requests: result.requests.length,
      ...(plan.note ? { note: plan.note } : {}),
      ...(recordStderr ? { stderrFile } : {}),
    });
    // Saved after every fixture, so a failing run keeps what was recorded before it.
    await saveManifest();
  }
  for (const root of new Set(roots.values())) await rm(root, { recursive: true, force: true });
}

// The converter's events of the new Claude Code recordings are written anew beside the
// recordings (a snapshot test), so the one diff shows what changed in the stream and in Cairn's view
// of it alike.
if (agentCliFixturePlans['claude-code'].some((plan) => wanted('claude-code', plan.fixture))) {
  const vitest = createRequire(import.meta.url).resolve('vitest/vitest.mjs');
  const snapshot = spawnSync(
    process.execPath,
    [vitest, 'run', '--update', 'src/claude-code/claude-code-converter-output.test.ts'],
    { cwd: packageDirectory, stdio: 'inherit' },
  );
  if (snapshot.status !== 0) process.exitCode = 1;
}

console.log(`recorded; manifest and README in ${fixturesDirectory}`);

async function saveManifest() {
  const order = Object.fromEntries(
    Object.entries(agentCliFixturePlans).flatMap(([name, plans]) =>
      plans.map((plan, index) => [`${name}/${plan.fixture}.jsonl`, index]),
    ),
  );
  manifest.fixtures.sort((a, b) => a.cli.localeCompare(b.cli) || (order[a.file] ?? 0) - (order[b.file] ?? 0));
  manifest.captured = {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    isolation: isolation.kind === 'network-namespace' ? isolation.description : `none (${isolation.reason})`,
    pathPlaceholder: `${RUN_PARENT}/cairn-agent-cli-XXXXXX`,
  };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(fixturesDirectory, 'README.md'), renderReadme(manifest));
  // In the repository's own format, so `pnpm lint` passes on what the recorder wrote.
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  spawnSync(
    process.execPath,
    [biome, 'format', '--write', manifestPath, join(fixturesDirectory, 'README.md')],
    {
      stdio: 'ignore',
    },
  );
}

function renderReadme(data) {
  const rows = data.fixtures.map((entry) => {
    const args = entry.command
      .slice(1)
      .map((part) => (part.includes(' ') ? JSON.stringify(part) : part))
      .join(' ')
      .replaceAll('|', '\\|');
    const how = [`\`${args}\``];
    // Permissions the arguments do not show (Gemini's settings file): Claude Code's are its --allowedTools.
    if (entry.cli === 'gemini-cli' && entry.permissions !== 'all') {
      how.push(`settings \`tools.allowed: ${JSON.stringify(entry.permissions)}\``);
    }
    if (entry.extraEnv) {
      how.push(
        `env ${Object.entries(entry.extraEnv)
          .map(([key, value]) => `\`${key}=${value}\``)
          .join(' ')}`,
      );
    }
    if (entry.interrupt) {
      const { signal, target, delayMs, afterStdout } = entry.interrupt;
      const whom = target === 'group' ? 'process group' : 'CLI process';
      how.push(`${signal} to the ${whom} ${delayMs} ms after stdout shows \`${afterStdout}\``);
    }
    if (entry.resumes) how.push(`(resumes \`${entry.resumes}\`)`);
    if (entry.note) how.push(entry.note);
    return `| \`${entry.file}\` | ${entry.scenario} | ${how.join(' ')} | ${entry.signal ?? entry.exitCode} |`;
  });
  return `# Real agent-CLI fixtures

Generated by \`pnpm fixtures:record\` (\`scripts/record-real-fixtures.mjs\`); do not edit by hand.
Each \`.jsonl\` is the unmodified stdout of a real CLI from the npm registry, run offline against the
scripted stand-in of its vendor API (\`@cairn/testing/agent-clis\`), except for one substitution: the
run's temporary directory (its cwd \`work/\` and fresh \`HOME\` \`home/\`) is written as
\`${data.captured.pathPlaceholder}\`, a placeholder of the same length, so split JSON keeps its offsets.
Claude Code's project directories spell the same path with \`-\` for \`/\`; the same substitution covers them.
A \`.stderr.txt\` beside a fixture (manifest: \`stderrFile\`) is that run's stderr, with the same
substitution and the checkout the CLIs are installed in written as \`<workspace>\`.

- Captured ${data.captured.date} on ${data.captured.platform}, Node ${data.captured.node}; isolation: ${data.captured.isolation}.
${Object.entries(data.clis)
  .map(
    ([name, cli]) =>
      `- \`${name}\`: \`${cli.package}@${cli.version}\` (\`--version\`: \`${cli.versionOutput}\`)`,
  )
  .join('\n')}
- Environment: ${[...new Set(data.fixtures.flatMap((entry) => entry.env))].map((name) => `\`${name}\``).join(', ')} (values in \`@cairn/testing\`'s \`agentCliOfflineEnvironment\` and each CLI definition's \`env\`).

| file | scenario | arguments / how | exit |
|---|---|---|---|
${rows.join('\n')}

\`manifest.json\` holds the same data for the tests.

## How each CLI runs, and what it writes

${Object.keys(data.clis)
  .filter((name) => CLI_NOTES[name] !== undefined)
  .map((name) => `### \`${name}\`\n\n${CLI_NOTES[name]}`)
  .join('\n\n')}
`;
}
