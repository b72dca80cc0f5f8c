import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFsConversationStore } from '@cairn/store-fs';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  runServerToExit,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerAndMock,
  TOKEN,
  tempDir,
} from './support/server-process.js';

const EVERYTHING_BIN = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

let mock: MockProviderServer | undefined;
let server: ServerProcess | undefined;
afterEach(async () => {
  await stopServerAndMock(server, mock);
  server = undefined;
  mock = undefined;
});

function writeMcpConfig(dir: string, servers: Record<string, unknown>): string {
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

describe('cairn-server with --mcp-config', () => {
  it("gives the model server-everything's tools, stores the call, and stops the server on exit", async () => {
    mock = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [{ name: 'mcp__everything__get-sum', arguments: { a: 2, b: 3 } }] },
        { text: 'It is 5.' },
      ],
    });
    const dataDir = tempDir('mcp');
    const config = writeMcpConfig(dataDir, {
      everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
    });
    const env = serverEnv(dataDir, {
      OPENAI_BASE_URL: mock.baseURL,
      CAIRN_MODEL: 'mock-model',
      CAIRN_API_TOKEN: TOKEN,
      CAIRN_MCP_CONFIG: config,
    });
    server = await startServerProcess([], env);
    const response = await server.request('/v1/conversations/c1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'What is 2 + 3?' }),
    });
    expect(response.status).toBe(200);
    const chat = mock.requests.filter((request) => request.path.endsWith('/chat/completions'));
    const tools = (chat[0]?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? [];
    expect(tools.map((tool) => tool.function.name)).toContain('mcp__everything__get-sum');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const store = createFsConversationStore({ rootDir: join(dataDir, 'store') });
    try {
      const stored = await store.load('c1');
      const tool = stored.find((message) => message.role === 'tool');
      expect(tool).toMatchObject({ toolName: 'mcp__everything__get-sum', isError: false });
      expect(String(tool?.content)).toMatch(/5/);
      expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: 'It is 5.' });
    } finally {
      await store.close();
    }
  });

  it('refuses to start when a configured server will not, naming it', async () => {
    mock = await startMockProviderServer({ provider: 'openai', turns: [] });
    const dataDir = tempDir('mcp-bad');
    const config = writeMcpConfig(dataDir, { broken: { command: '/nonexistent/mcp-server' } });
    const run = await runServerToExit(
      ['--insecure-local', '--mcp-config', config],
      serverEnv(dataDir, { OPENAI_BASE_URL: mock.baseURL, CAIRN_MODEL: 'mock-model' }),
    );
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('MCP server "broken" failed to start');
  });
});
