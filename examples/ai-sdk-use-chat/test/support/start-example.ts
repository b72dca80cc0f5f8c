import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { build, type PreviewServer, preview } from 'vite';
// The server's own test harness, reused: the built `cairn-server` started as a child process.
import {
  type ServerProcess,
  serverEnv,
  startServerProcess,
  TOKEN,
  tempDir,
} from '../../../../apps/server/test/support/server-process.ts';
import { cairnProxy } from '../../cairn-proxy.ts';
import { chatModelTurns, NOTES } from './chat-model-script.ts';

export const APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningExample {
  /** The built app on Vite's preview server, forwarding `/v1` to the server. */
  appURL: string;
  /** The server's workspace directory: what its tools read and its commands change. */
  workspace: string;
  server: ServerProcess;
  mock: MockProviderServer;
  close(): Promise<void>;
}

/**
 * The whole stack the way a user runs it: a real `cairn-server` (with a token, the workspace tools
 * over a directory holding `notes.txt`, `run_command` asking for approval, and the mock
 * OpenAI-compatible model of `chat-model-script.ts`), and the app built by Vite and served by `vite preview` with the proxy of
 * `vite.config.ts` pointed at that server.
 */
export async function startExample(): Promise<RunningExample> {
  const mock = await startMockProviderServer({ provider: 'openai', turns: chatModelTurns() });
  const dataDir = tempDir('use-chat');
  const workspace = join(dataDir, 'workspace');
  const outDir = await mkdtemp(join(tmpdir(), 'cairn-use-chat-dist-'));
  let server: ServerProcess | undefined;
  let previewServer: PreviewServer | undefined;
  const close = async () => {
    await previewServer?.close();
    if (server !== undefined && server.child.exitCode === null) server.child.kill('SIGTERM');
    await server?.exited;
    await mock.close();
    await rm(outDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await mkdir(workspace);
    await writeFile(join(workspace, 'notes.txt'), NOTES);
    server = await startServerProcess(
      ['--workspace', workspace],
      serverEnv(dataDir, {
        OPENAI_BASE_URL: mock.baseURL,
        CAIRN_MODEL: 'mock-model',
        CAIRN_API_TOKEN: TOKEN,
      }),
    );
    await build({ root: APP_DIR, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    previewServer = await preview({
      root: APP_DIR,
      logLevel: 'warn',
      build: { outDir },
      preview: {
        host: '127.0.0.1',
        port: 0,
        proxy: cairnProxy({ CAIRN_SERVER_URL: server.url, CAIRN_API_TOKEN: TOKEN }),
      },
    });
    const { port } = previewServer.httpServer.address() as AddressInfo;
    return { appURL: `http://127.0.0.1:${port}`, workspace, server, mock, close };
  } catch (error) {
    await close();
    throw error;
  }
}
