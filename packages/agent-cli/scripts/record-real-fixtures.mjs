#!/usr/bin/env node
// Records fixtures/real/<cli>/<fixture>.jsonl from the real agent CLIs pinned in the `agent-clis` pnpm
// catalog, each run offline against the scripted stand-in of its vendor API (@cairn/testing/agent-clis),
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
const fixturesDirectory = join(packageDirectory, 'fixtures', 'real');
const manifestPath = join(fixturesDirectory, 'manifest.json');
// A fixed parent, so the scrubbed placeholder (`/tmp/cairn-agent-cli-XXXXXX`) is the same on every machine.
const RUN_PARENT = '/tmp';

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
    const { fixture: _fixture, resumes, note: _note, timeoutMs, ...run } = plan;
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
    await writeFile(join(fixturesDirectory, file), scrubMachinePaths(result.stdout.toString('utf8'), root));
    const command = result.command.map((part) => scrubMachinePaths(part, root));
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
    });
    // Saved after every fixture, so a failing run keeps what was recorded before it.
    await saveManifest();
  }
  for (const root of new Set(roots.values())) await rm(root, { recursive: true, force: true });
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

- Captured ${data.captured.date} on ${data.captured.platform}, Node ${data.captured.node}; isolation: ${data.captured.isolation}.
${Object.entries(data.clis)
  .map(
    ([name, cli]) =>
      `- \`${name}\`: \`${cli.package}@${cli.version}\` (\`--version\`: \`${cli.versionOutput}\`)`,
  )
  .join('\n')}
- Environment: ${[...new Set(data.fixtures.flatMap((entry) => entry.env))].map((name) => `\`${name}\``).join(', ')} (values in \`@cairn/testing\`'s \`agentCliOfflineEnvironment\`).

| file | scenario | arguments / how | exit |
|---|---|---|---|
${rows.join('\n')}

\`manifest.json\` holds the same data for the tests.
`;
}
