// Aborting the real Claude Code and Gemini CLI (the `sleep` scenario: text + a shell `sleep 30`,
// aborted 2 s into the command), each inside a private network namespace with its loopback mock.
// Skipped, saying why, when the CLIs are not installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentOutput } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { type AgentPermissions, createAgentExecutor } from '../src/index.js';
import { eventually, isRunning, processGroupMembers, tempDir } from './support.js';

type RealCli = 'claude-code' | 'gemini-cli';

const PACKAGES: Record<RealCli, { name: string; bin: string }> = {
  'claude-code': { name: '@anthropic-ai/claude-code', bin: 'claude' },
  'gemini-cli': { name: '@google/gemini-cli', bin: 'gemini' },
};

/**
 * Where a CLI is installed: pinned beside the converters (`@cairn/agent-cli`'s dev dependencies),
 * or in `CAIRN_REAL_CLI_DIR` (an npm install directory).
 */
function findCli(cli: RealCli): string | undefined {
  const { name, bin } = PACKAGES[cli];
  const fromDir =
    process.env.CAIRN_REAL_CLI_DIR && join(process.env.CAIRN_REAL_CLI_DIR, 'node_modules', '.bin', bin);
  if (fromDir && existsSync(fromDir)) return fromDir;
  try {
    const agentCli = createRequire(fileURLToPath(new URL('../../agent-cli/package.json', import.meta.url)));
    const pkg = agentCli.resolve(`${name}/package.json`);
    const beside = join(dirname(pkg), '..', '..', '.bin', bin);
    return existsSync(beside) ? beside : undefined;
  } catch {
    return undefined;
  }
}

const MOCK = fileURLToPath(new URL('./real-cli-mock.mjs', import.meta.url));
const canUnshare = spawnSync('unshare', ['-n', 'true'], { timeout: 10_000 }).status === 0;

// Inside the namespace: loopback up, the mock started, its port in the CLI's base URLs, then the CLI
// itself (exec: the pid the executor spawned, which leads the process group, becomes the CLI).
const INSIDE = `
ip link set lo up 2>/dev/null
node="$1"; mock="$2"; provider="$3"; dir="$4"; shift 4
echo $$ > "$dir/leader"
readlink /proc/self/ns/net > "$dir/netns"
"$node" "$mock" "$provider" "$dir/port" &
i=0
while [ ! -s "$dir/port" ]; do i=$((i+1)); [ $i -gt 600 ] && exit 98; sleep 0.1; done
port=$(cat "$dir/port")
export ANTHROPIC_BASE_URL="http://127.0.0.1:$port" GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$port"
exec "$@"
`;

/**
 * How one real CLI is run offline: the executor options (command, arguments, environment) and the
 * files the runner writes. The one place the lead swaps for `@cairn/testing/agent-clis`.
 */
async function realCliRunner(cli: RealCli, executable: string) {
  const dir = await tempDir();
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  await mkdir(join(home, '.claude'), { recursive: true });
  await mkdir(join(home, '.gemini'), { recursive: true });
  await mkdir(cwd);
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: [] } }));
  await writeFile(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      security: { auth: { selectedType: 'gemini-api-key' } },
    }),
  );
  const provider = cli === 'claude-code' ? 'anthropic' : 'gemini';
  const inside = ['sh', '-c', INSIDE, 'sh', process.execPath, MOCK, provider, dir, executable];
  return {
    dir,
    cwd,
    command: canUnshare ? 'unshare' : 'sh',
    commandArgs: canUnshare ? ['-n', ...inside] : inside.slice(1),
    env: {
      HOME: home,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      ANTHROPIC_API_KEY: 'sk-ant-dummy',
      GEMINI_API_KEY: 'dummy-gemini-key',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  };
}

/** The running processes in network namespace `netns` (`net:[…]`): every process of the run. */
function inNamespace(netns: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readlinkSync(`/proc/${name}/ns/net`) === netns;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(isRunning);
}

const PERMISSIONS: Record<RealCli, AgentPermissions> = {
  'claude-code': { mode: 'read-only', allowedTools: ['Bash(sleep:*)'] },
  'gemini-cli': { mode: 'full' },
};

const factor = Number(process.env.CAIRN_TEST_TIMEOUT_FACTOR ?? 1);

describe.each(['claude-code', 'gemini-cli'] as const)('aborting the real %s', (cli) => {
  const executable = findCli(cli);
  const note = canUnshare ? '' : ' (loopback only: unshare -n is not allowed here)';
  const skipped = `skipped: ${PACKAGES[cli].name} is not installed (pin it in @cairn/agent-cli or set CAIRN_REAL_CLI_DIR)`;

  it.skipIf(executable === undefined)(
    `stops it 2 s into \`sleep 30\`: aborted, nothing after the abort stored, no process of the run left${note}${executable === undefined ? ` — ${skipped}` : ''}`,
    async () => {
      const runner = await realCliRunner(cli, executable as string);
      const store = createMemoryConversationStore();
      const executor = createAgentExecutor({
        store,
        agent: cli,
        cwd: runner.cwd,
        command: runner.command,
        commandArgs: runner.commandArgs,
        env: runner.env,
        permissions: PERMISSIONS[cli],
      });
      const controller = new AbortController();
      let abortedAt = 0;
      const onEvent = (event: AgentOutput) => {
        if (event.type === 'tool_use' && abortedAt === 0) {
          abortedAt = -1;
          setTimeout(() => {
            abortedAt = Date.now();
            controller.abort();
          }, 2000);
        }
      };
      const result = await executor.run({
        prompt: 'Wait. [scenario:sleep]',
        signal: controller.signal,
        onEvent,
      });
      const stoppedMs = Date.now() - abortedAt;
      const log = await store.load(result.conversationId);
      const leader = Number(await readFile(join(runner.dir, 'leader'), 'utf8'));
      const netns = (await readFile(join(runner.dir, 'netns'), 'utf8')).trim();
      const left = await eventually(
        () => ({
          group: processGroupMembers(leader),
          namespace: canUnshare ? inNamespace(netns) : [],
        }),
        (found) => found.group.length === 0 && found.namespace.length === 0,
      );
      console.log(
        `${cli}: aborted 2 s into sleep 30; run ended ${stoppedMs} ms after the abort, exit ${result.exitCode}, signal ${result.signal}, error ${JSON.stringify(result.error)}; stored ${log.map((message) => message.errorCode ?? message.role).join(', ')}; left in its group ${left.group.length}, in its namespace ${left.namespace.length}`,
      );

      expect(abortedAt).toBeGreaterThan(0);
      expect(result).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
      expect(log[0]).toMatchObject({ role: 'user', content: 'Wait. [scenario:sleep]' });
      expect(log.at(-1)).toMatchObject({ partType: 'error', errorCode: 'LLM_ABORTED' });
      // Nothing after the abort is an answer: no "Slept.", and the sleep's call is answered as interrupted.
      expect(log.some((message) => String(message.content).includes('Slept.'))).toBe(false);
      const tool = log.find((message) => message.role === 'tool');
      expect(tool?.isError).toBe(true);
      expect(left).toEqual({ group: [], namespace: [] });
    },
    120_000 * factor,
  );
});
