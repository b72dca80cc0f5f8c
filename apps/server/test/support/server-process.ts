import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockProviderServer, type NodeScriptRun, runNodeScript } from '@cairn/testing';
import { afterAll } from 'vitest';

/** The built `cairn-server` binary (the vitest global setup builds the package first). */
export const SERVER_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export const TOKEN = 'test-token-0123456789abcdef';

const madeDirs: string[] = [];
// Registered while the importing test file is collected: its temp dirs go when its tests are done.
afterAll(() => {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the test file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cairn-server-${prefix}-`));
  madeDirs.push(dir);
  return dir;
}

/**
 * A clean environment: nothing from the machine running the tests (keys, base URLs, a local model).
 * Two workers, whatever the machine's cores: the binary is tested as a cluster (the default on any
 * machine with two cores or more); a test about something else pins `--workers 1`.
 */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dataDir,
    CAIRN_DATA_DIR: dataDir,
    CAIRN_LOCAL_BASE_URL: 'off',
    CAIRN_WORKERS: '2',
    ...extra,
  };
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** The URL from the "listening" log line. */
  url: string;
  /** The JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Runs `cairn-server <args>` to completion (for the start-up refusals). */
export function runServerToExit(args: string[], env: Record<string, string>): Promise<NodeScriptRun> {
  return runNodeScript(SERVER_BIN, args, { env, timeoutMs: 30_000 });
}

/** Starts `cairn-server <args>` on a free port and waits until it listens. */
export function startServerProcess(
  args: string[],
  env: Record<string, string>,
  token: string | undefined = env.CAIRN_API_TOKEN,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_BIN, '--port', '0', ...args], { env });
  const lines: Array<Record<string, unknown>> = [];
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    // A deadline, not a wait: the server's start-up line ends it long before.
    const deadline = AbortSignal.timeout(30_000);
    const onDeadline = () => {
      child.kill('SIGKILL');
      reject(new Error(`cairn-server did not start\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    deadline.addEventListener('abort', onDeadline, { once: true });
    exited.then((code) => {
      deadline.removeEventListener('abort', onDeadline);
      reject(new Error(`cairn-server exited with ${code} before listening\nstderr: ${stderr}`));
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const complete = stdout.split('\n');
      stdout = complete.pop() ?? '';
      for (const line of complete) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        lines.push(entry);
        if (typeof entry.url === 'string' && String(entry.msg).includes('listening')) {
          deadline.removeEventListener('abort', onDeadline);
          const url = entry.url;
          resolve({
            child,
            url,
            logs: () => lines,
            stderr: () => stderr,
            exited,
            request(path, init = {}) {
              const headers = new Headers(init.headers);
              if (token !== undefined && !headers.has('authorization')) {
                headers.set('authorization', `Bearer ${token}`);
              }
              return fetch(`${url}${path}`, { ...init, headers });
            },
          });
        }
      }
    });
  });
}

/** POSTs a user message asking for the SSE stream of the turn. */
export function postStreamingTurn(server: ServerProcess, conversationId: string, content: string) {
  return server.request(`/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ content }),
  });
}

/**
 * After a test: stops its server if it is still running (and waits for the exit), closes its mock
 * model. A signal to drain and a second to abort at once: a cluster's primary then takes its workers
 * down with it (a SIGKILLed primary would leave them draining on their own). SIGKILL after a deadline.
 */
export async function stopServerAndMock(
  server: ServerProcess | undefined,
  mock: MockProviderServer | undefined,
): Promise<void> {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    server.child.kill('SIGINT');
    const deadline = AbortSignal.timeout(15_000);
    const kill = () => server.child.kill('SIGKILL');
    deadline.addEventListener('abort', kill, { once: true });
    await server.exited;
    deadline.removeEventListener('abort', kill);
  }
  await server?.exited;
  await mock?.close();
}
