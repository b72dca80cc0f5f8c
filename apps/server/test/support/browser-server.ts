import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationStore } from '@cairn/core';
import { createWorkspaceTools } from '@cairn/loop/tools';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { createInProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../../src/turn-lock/in-process-turn-lock.js';
import { BROWSER_SCRIPT, browserModelTurn } from './browser-model-script.js';
import { serveApp } from './serve-app.js';

export const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_ROOT = join(PACKAGE_DIR, 'dist', 'web');

export interface BrowserTestServer {
  baseURL: string;
  store: ConversationStore;
  /** The temporary workspace the tools edit; holds `notes.txt`. */
  workspace: string;
  close(): Promise<void>;
}

/**
 * The app with the built web page on a real HTTP server (127.0.0.1, random port), over a memory
 * store, the scripted model of `browser-model-script.ts` and workspace tools in a temporary directory.
 */
export async function startBrowserTestServer(
  options: {
    apiToken?: string;
    /** Ids of more models the page may pick (`GET /v1/models`), answering as the default does. */
    otherModelIds?: readonly string[];
    /** `run_command` waits for a person's approval (default false: it runs at once). */
    runCommandNeedsApproval?: boolean;
    /** An approval request left undecided this long expires (default: never). */
    approvalTtlMs?: number;
  } = {},
): Promise<BrowserTestServer> {
  const workspace = await mkdtemp(join(tmpdir(), 'cairn-web-'));
  await writeFile(join(workspace, 'notes.txt'), BROWSER_SCRIPT.fileBefore);
  const store = createMemoryConversationStore();
  const model = new ScriptedModel({ turns: browserModelTurn });
  const tools = createWorkspaceTools({
    root: workspace,
    runCommandNeedsApproval: options.runCommandNeedsApproval ?? false,
  });
  const approvals =
    options.approvalTtlMs === undefined ? {} : { approvals: { ttlMs: options.approvalTtlMs } };
  const runtime = createAgentRuntime({ store, model, tools, settings: { compression: false, ...approvals } });
  const served = await serveApp({
    store,
    runtime,
    events: createInProcessEventBus(),
    turnLock: createInProcessTurnLock(),
    webRoot: WEB_ROOT,
    ...(options.apiToken === undefined ? {} : { apiToken: options.apiToken }),
    ...(options.otherModelIds === undefined
      ? {}
      : {
          models: [
            model,
            ...options.otherModelIds.map(
              (modelId) => new ScriptedModel({ modelId, turns: browserModelTurn }),
            ),
          ],
        }),
  });
  return {
    baseURL: served.baseURL,
    store,
    workspace,
    async close() {
      await served.close();
      await rm(workspace, { recursive: true, force: true });
    },
  };
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (stat.isFile()) return stat.mtimeMs;
  let newest = 0;
  for (const file of readdirSync(path, { recursive: true, encoding: 'utf8' })) {
    const fileStat = statSync(join(path, file));
    if (fileStat.isFile()) newest = Math.max(newest, fileStat.mtimeMs);
  }
  return newest;
}

/**
 * Builds the page when `dist/web` is older than `web/`. The global setup builds the package, but it
 * only compares `dist` with `src/`, so an edit of the page alone would otherwise test a stale build.
 */
export function ensureWebBuilt(): void {
  const built = newestMtime(join(WEB_ROOT, 'index.html'));
  const sources = Math.max(
    newestMtime(join(PACKAGE_DIR, 'web')),
    newestMtime(join(PACKAGE_DIR, 'vite.config.ts')),
  );
  if (built >= sources) return;
  execFileSync(join(PACKAGE_DIR, 'node_modules', '.bin', 'vite'), ['build'], {
    cwd: PACKAGE_DIR,
    stdio: 'inherit',
  });
}
