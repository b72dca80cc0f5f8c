import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CairnError } from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServers } from '../src/index.js';
import { EVERYTHING_BIN } from './mcp-servers.js';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

describe('Streamable HTTP: server-everything streamableHttp', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on port')) resolve();
      });
      child.once('exit', () => reject(new Error(`server-everything exited: ${stderr}`)));
    });
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    child.kill();
  });

  it('lists and calls its tools', async () => {
    const client = await connectMcpServers({ remote: { type: 'http', url } });
    try {
      const host = client.toolHost();
      expect(host.getVisibleTools().map((tool) => tool.name)).toContain('mcp__remote__get-sum');
      const sum = await host.execute(
        {
          id: 'c1',
          type: 'function',
          function: { name: 'mcp__remote__get-sum', arguments: '{"a":2,"b":3}' },
        },
        { signal: new AbortController().signal },
      );
      expect(sum).toMatchObject({ isError: false });
      expect(sum.content).toMatch(/5/);
    } finally {
      await client.close();
    }
  });
});

describe('Streamable HTTP: a server answering 401', () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
  });
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterAll(() => {
    server.close();
  });

  it('is an MCP_SERVER_FAILED naming the server; the configured headers were sent', async () => {
    const { port } = server.address() as AddressInfo;
    const error = (await connectMcpServers({
      secured: {
        type: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: 'Bearer wrong' },
      },
    }).catch((thrown: unknown) => thrown)) as CairnError;
    expect(error.code).toBe('MCP_SERVER_FAILED');
    expect(error.message).toMatch(/MCP server "secured" failed to start/);
    expect(error.message).toMatch(/401/);
    expect(seen[0]?.authorization).toBe('Bearer wrong');
  });
});
