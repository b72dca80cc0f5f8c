import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { KILL_GRACE_MS, liveProcessGroups } from './process-tree.js';
import { createRunCommandTool, type RunCommandResult } from './run-command-tool.js';
import { callTool, failureOf, useTempWorkspace, writeFiles } from './test-support.js';

const dirs = useTempWorkspace();
const tool = (options = {}) => createRunCommandTool({ root: dirs.root, ...options });
const run = (args: object, options = {}, signal?: AbortSignal) =>
  callTool(tool(options), args, signal === undefined ? {} : { signal });

// A killed orphan can stay a zombie until PID 1 reaps it (Linux shows it in /proc): dead all the same.
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function stopsRunningWithin(pid: number, ms: number): Promise<boolean> {
  const stopped = async () => {
    if (await isRunning(pid)) throw new Error(`process ${pid} is still running`);
  };
  return vi.waitFor(stopped, { timeout: ms, interval: 20 }).then(
    () => true,
    () => false,
  );
}

async function pidWrittenTo(file: string): Promise<number> {
  const pid = async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim() === '') throw new Error(`no pid in ${file}`);
    return Number(text.trim());
  };
  return vi.waitFor(pid, { timeout: 2_000, interval: 20 });
}

describe.skipIf(process.platform === 'win32')('run_command', () => {
  it('runs in the workspace root and returns stdout, stderr and exit code 0', async () => {
    const result = await run({ command: 'pwd; echo oops >&2' });
    expect(result).toEqual({ stdout: `${dirs.root}\n`, stderr: 'oops\n', exitCode: 0 });
    expect(tool().toModelOutput?.(result)).toBe(`${dirs.root}\n[stderr]\noops`);
    expect(tool().toModelOutput?.({ stdout: '', stderr: '', exitCode: 0 })).toBe('(no output)');
  });

  it('runs in cwd inside the workspace, with the extra environment', async () => {
    await writeFiles(dirs.root, { 'src/a.txt': '' });
    const result = await run(
      { command: 'ls; echo "$GREETING"', cwd: 'src' },
      { commandEnv: { GREETING: 'hello' } },
    );
    expect(result.stdout).toBe('a.txt\nhello\n');
    await failureOf(run({ command: 'ls', cwd: '..' }), 'TOOL_DENIED');
    await failureOf(run({ command: 'ls', cwd: 'src/a.txt' }), 'TOOL_FAILED');
  });

  it('fails on a non-zero exit, keeping the output', async () => {
    const error = await failureOf(run({ command: 'echo ran; echo broke >&2; exit 3' }), 'TOOL_FAILED');
    expect(error.message).toBe('Exit code 3\nran\n[stderr]\nbroke');
    expect(error.details?.structured).toEqual({ stdout: 'ran\n', stderr: 'broke\n', exitCode: 3 });
  });

  it('fails when a signal kills it', async () => {
    const error = await failureOf(run({ command: 'kill -9 $$' }), 'TOOL_FAILED');
    expect(error.message).toMatch(/^Command was killed by SIGKILL/);
    expect(error.details?.structured).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });

  it('times out with TOOL_TIMEOUT, stopping the whole process group', async () => {
    const pidFile = join(dirs.root, 'pid');
    // The sleep outlasts any test timeout: the call can only return because the group was stopped.
    const error = await failureOf(
      run({ command: `echo before; sleep 3600 & echo $! > ${pidFile}; wait` }, { commandTimeoutMs: 300 }),
      'TOOL_TIMEOUT',
    );
    expect(error.message).toMatch(/^Command timed out after 0.3 s and was stopped\nbefore/);
    expect(error.details?.structured).toMatchObject({
      stdout: 'before\n',
      exitCode: null,
      interrupted: true,
    });
    expect(await isRunning(await pidWrittenTo(pidFile))).toBe(false);
  });

  it('kills what ignores SIGTERM once the grace period is over', async () => {
    const pidFile = join(dirs.root, 'pid');
    const started = Date.now();
    const error = await failureOf(
      run({ command: `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait` }, { commandTimeoutMs: 200 }),
      'TOOL_TIMEOUT',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(KILL_GRACE_MS);
    expect(error.details?.structured).toMatchObject({ signal: 'SIGKILL' });
    expect(await isRunning(await pidWrittenTo(pidFile))).toBe(false);
  });

  it('stops when the call is aborted', async () => {
    const pidFile = join(dirs.root, 'pid');
    const controller = new AbortController();
    const call = run({ command: `sleep 30 & echo $! > ${pidFile}; wait` }, {}, controller.signal);
    const grandchild = await pidWrittenTo(pidFile);
    controller.abort();
    const error = await failureOf(call, 'TOOL_FAILED');
    expect(error.message).toMatch(/^Command was cancelled/);
    expect(error.details?.structured).toMatchObject({ interrupted: true });
    expect(await isRunning(grandchild)).toBe(false);
  });

  it('leaves nothing running in the background once it returns', async () => {
    const pidFile = join(dirs.root, 'pid');
    // The sleep outlasts any test timeout: the call returns without waiting for it, and stops it.
    await run({ command: `sleep 3600 & echo $! > ${pidFile}` });
    expect(await isRunning(await pidWrittenTo(pidFile))).toBe(false);
  });

  it('keeps the start and the end of long output', async () => {
    const result: RunCommandResult = await run(
      { command: `printf 'START'; head -c 5000 /dev/zero | tr '\\0' x; printf 'END'` },
      { maxCommandOutputBytes: 100 },
    );
    expect(result.stdout).toMatch(/^STARTx{45}\n\[… 4908 bytes of output cut …\]\nx{47}END$/);
  });

  it('needs approval unless turned off, and outlasts its own timeout in the host', () => {
    expect(tool().needsApproval).toBe(true);
    expect(tool({ runCommandNeedsApproval: false }).needsApproval).toBe(false);
    expect(tool({ commandTimeoutMs: 1000 }).timeoutMs).toBeGreaterThan(1000);
  });

  it('keeps secrets of this process out of the command, unless told to pass them', async () => {
    const secrets = {
      CAIRN_TEST_PROVIDER_API_KEY: 'sk-test',
      cairn_test_token: 'tok',
      CAIRN_TEST_DB_PASSWORD: 'pw',
      DATABASE_URL: 'postgres://u:p@h/db',
      GITHUB_TOKEN: 'ghp',
    };
    const plain = { CAIRN_TEST_TOKENIZER: 'plain', CAIRN_TEST_KEYS_DIR: 'plain' };
    const names = [...Object.keys(secrets), ...Object.keys(plain)];
    const command = names.map((name) => `echo "${name}=\${${name}:-unset}"`).join('; ');
    const saved = names.map((name) => [name, process.env[name]] as const);
    Object.assign(process.env, secrets, plain);
    try {
      const shown = (stdout: string) =>
        Object.fromEntries(
          stdout
            .trim()
            .split('\n')
            .map((line) => line.split('=', 2)),
        );
      const unset = Object.fromEntries(Object.keys(secrets).map((name) => [name, 'unset']));
      expect(shown((await run({ command })).stdout)).toEqual({ ...unset, ...plain });
      // commandEnv is passed as given, secret or not.
      expect(shown((await run({ command }, { commandEnv: { GITHUB_TOKEN: 'given' } })).stdout)).toEqual({
        ...unset,
        ...plain,
        GITHUB_TOKEN: 'given',
      });
      expect(shown((await run({ command }, { inheritSecretEnv: true })).stdout)).toEqual({
        ...secrets,
        ...plain,
      });
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('kills what is left of an aborted command when the process exits during the grace period', async () => {
    const pidFile = join(dirs.root, 'pids');
    const tools = new URL('../../dist/tools/index.js', import.meta.url).href;
    // The host settles an aborted call at once; its caller may exit before SIGKILL is due.
    const script = `
      import { watch } from 'node:fs';
      import { readFile } from 'node:fs/promises';
      import { dirname } from 'node:path';
      import { createRunCommandTool } from ${JSON.stringify(tools)};
      const { WORKSPACE, COMMAND, PID_FILE } = process.env;
      const tool = createRunCommandTool({ root: WORKSPACE, runCommandNeedsApproval: false });
      const controller = new AbortController();
      const watcher = watch(dirname(PID_FILE));
      const call = tool.execute({ command: COMMAND }, { toolCallId: 'c', signal: controller.signal }).catch(() => {});
      for (;;) {
        const changed = new Promise((resolve) => watcher.once('change', resolve));
        if ((await readFile(PID_FILE, 'utf8').catch(() => '')).endsWith('\\n')) break;
        await changed;
      }
      watcher.close();
      controller.abort();
      await call;
      process.exit(0);
    `;
    const command = `trap '' TERM; sleep 30 & echo "$$ $!" > ${pidFile}; wait`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, WORKSPACE: dirs.root, COMMAND: command, PID_FILE: pidFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    const [shell, sleeper] = (await readFile(pidFile, 'utf8')).trim().split(' ').map(Number) as [
      number,
      number,
    ];
    try {
      expect(code).toBe(0);
      expect(await stopsRunningWithin(shell, 1000)).toBe(true);
      expect(await stopsRunningWithin(sleeper, 1000)).toBe(true);
    } finally {
      try {
        process.kill(-shell, 'SIGKILL');
      } catch {}
    }
  });

  it('forgets a command once it is gone, with one exit handler however many run', async () => {
    await run({ command: 'true' });
    const handlers = process.listenerCount('exit');
    await Promise.all([
      run({ command: 'true' }),
      run({ command: 'sleep 0.1 & true' }),
      run({ command: 'exit 0' }),
    ]);
    expect(process.listenerCount('exit')).toBe(handlers);
    expect(liveProcessGroups()).toEqual([]);
  });
});
