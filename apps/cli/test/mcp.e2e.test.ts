import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, ensureCliBuilt, latestStoredLog, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

const EVERYTHING_BIN = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ToolsBody = { tools?: { function: { name: string } }[] } | undefined;
const toolNames = (request: { body: unknown } | undefined) =>
  ((request?.body as ToolsBody)?.tools ?? []).map((tool) => tool.function.name);

describe('cairn -p with MCP servers', () => {
  it("uses the tools of ./.mcp.json's servers (server-everything); --strict-mcp-config leaves them out", async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from cairn' } }] },
        { text: 'The server echoed it.' },
        { text: 'No MCP tools here.' },
      ],
    });
    const dataDir = tempDir('mcp');
    const project = tempDir('mcp-project');
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } },
      }),
    );
    const env = mockEnv(dataDir, server.baseURL);
    const run = await runCairn(['-p', 'Echo something', '--workspace', project], { env, cwd: project });
    expect(run.stderr).not.toContain('[MCP');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The server echoed it.');
    const [first, second] = chatRequests(server);
    expect(toolNames(first)).toEqual(expect.arrayContaining(['mcp__everything__echo', 'read_file']));
    expect(JSON.stringify(second?.body)).toContain('Echo: hello from cairn');
    const log = await latestStoredLog(dataDir);
    expect(log.find((message) => message.role === 'tool')).toMatchObject({
      toolName: 'mcp__everything__echo',
      content: 'Echo: hello from cairn',
    });

    const strict = await runCairn(['-p', 'Anything?', '--strict-mcp-config'], { env, cwd: project });
    expect(strict.code).toBe(0);
    expect(toolNames(chatRequests(server)[2])).not.toContain('mcp__everything__echo');
  });

  it('a server that will not start fails the command, naming it', async () => {
    server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'unused' }] });
    const dataDir = tempDir('mcp-bad');
    const config = join(dataDir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { broken: { command: '/nonexistent/mcp-server' } } }));
    const run = await runCairn(['-p', 'Hi', '--mcp-config', config], {
      env: mockEnv(dataDir, server.baseURL),
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('MCP_SERVER_FAILED');
    expect(run.stderr).toContain('MCP server "broken" failed to start');
  });
});
