import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage, ConversationStore } from '@cairn/core';
import { createFsConversationStore } from '@cairn/store-fs';
import {
  type MockProviderServer,
  type NodeScriptRun,
  type RecordedRequest,
  type RunNodeScriptOptions,
  runNodeScript,
} from '@cairn/testing';
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

export type CliRun = NodeScriptRun;

/** Runs `cairn <args>` as a child process, feeding `input` to stdin (closed after). */
export function runCairn(args: string[], options: RunNodeScriptOptions): Promise<CliRun> {
  return runNodeScript(CAIRN_BIN, args, { ...options, cwd: options.cwd ?? options.env.CAIRN_DATA_DIR });
}

// The fs store under `dataDir`, open for `read` only.
async function readStore<T>(dataDir: string, read: (store: ConversationStore) => Promise<T>): Promise<T> {
  const store = createFsConversationStore({ rootDir: join(dataDir, 'store') });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

/** The log of the most recently updated conversation in the fs store under `dataDir` (empty when none). */
export function latestStoredLog(dataDir: string): Promise<ConversationMessage[]> {
  return readStore(dataDir, async (store) => {
    const [summary] = (await store.listConversations({ limit: 1 })).conversations;
    return summary === undefined ? [] : await store.load(summary.id);
  });
}

/** The log of conversation `id` in the fs store under `dataDir`. */
export function storedLog(dataDir: string, id: string): Promise<ConversationMessage[]> {
  return readStore(dataDir, (store) => store.load(id));
}
