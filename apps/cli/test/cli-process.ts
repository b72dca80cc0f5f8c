import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockProviderServer, RecordedRequest } from '@cairn/testing';
import { ensurePackageBuilt } from '@cairn/vitest-config/build-package';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The built `cairn` binary the end-to-end tests run. */
export const CAIRN_BIN = join(PACKAGE_DIR, 'dist', 'bin.js');

/** Builds the CLI when its dist is older than its sources (under turbo it is already built). */
export function ensureCliBuilt(): void {
  ensurePackageBuilt(PACKAGE_DIR);
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `cairn-cli-${prefix}-`));
}

/**
 * A clean environment: no provider keys or base URLs from the machine running the tests, no local
 * server probe, no colour, no demo streaming delay, and a home of its own.
 */
export function cliEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dataDir,
    NO_COLOR: '1',
    CAIRN_DATA_DIR: dataDir,
    CAIRN_LOCAL_BASE_URL: 'off',
    CAIRN_DEMO_DELAY_MS: '0',
    ...extra,
  };
}

/** `cliEnv` pointed at a mock OpenAI-compatible server (which lists no models, so the model is named). */
export function mockEnv(
  dataDir: string,
  baseURL: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return cliEnv(dataDir, { OPENAI_BASE_URL: baseURL, CAIRN_MODEL: 'mock-model', ...extra });
}

/** The chat requests a mock server got (not the `GET /models` reachability checks before them). */
export function chatRequests(server: MockProviderServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path.endsWith('/chat/completions'));
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cairn <args>` as a child process, feeding `input` to stdin (closed after). */
export function runCairn(
  args: string[],
  options: { env: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CAIRN_BIN, ...args], {
      env: options.env,
      cwd: options.cwd ?? options.env.CAIRN_DATA_DIR,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.join(' ')} did not finish\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
