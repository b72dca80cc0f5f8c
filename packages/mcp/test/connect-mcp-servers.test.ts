import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CairnError } from '@cairn/core';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpClient } from '../src/index.js';
import { CHANGING_SERVER, everything, FILESYSTEM_BIN, isRunning } from './mcp-servers.js';

const clients: McpClient[] = [];
async function connect(...args: Parameters<typeof connectMcpServers>): Promise<McpClient> {
  const client = await connectMcpServers(...args);
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

const call = (name: string, args: unknown = {}, id = 'call_1') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});
const run = { signal: new AbortController().signal, approve: () => true };

describe('connectMcpServers with server-everything (stdio)', () => {
  it('lists the tools as mcp__<server>__<tool>, category mcp, approval from the annotations', async () => {
    const client = await connect(everything);
    const names = client.tools().map((tool) => tool.name);
    expect(names).toContain('mcp__everything__echo');
    expect(names).toContain('mcp__everything__get-tiny-image');
    const echo = client.tools().find((tool) => tool.name === 'mcp__everything__echo');
    expect(echo?.category).toBe('mcp');
    expect(echo?.needsApproval).toBe(false); // readOnlyHint: true
    // The ledger's flag from the annotations: read-only or idempotentHint runs again after a crash.
    const byName = (name: string) => client.tools().find((tool) => tool.name === `mcp__everything__${name}`);
    expect(echo?.idempotent).toBe(true);
    expect(byName('gzip-file-as-resource')?.idempotent).toBe(true); // idempotentHint, not read-only
    expect(byName('toggle-subscriber-updates')?.idempotent).toBe(false);
    const visible = client.toolHost().getVisibleTools();
    expect(visible.find((tool) => tool.name === 'mcp__everything__echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
    });
  });

  it('runs a call through the tool host: text, image part, structured content', async () => {
    const host = (await connect(everything)).toolHost();
    const echo = await host.execute(call('mcp__everything__echo', { message: 'hi' }), run);
    expect(echo).toMatchObject({ isError: false, content: 'Echo: hi' });
    expect(echo.structured).toBeUndefined();

    const image = await host.execute(call('mcp__everything__get-tiny-image'), run);
    expect(image.isError).toBe(false);
    // The model is sent the parts: it sees the image between the server's two texts.
    const parts = [
      { type: 'text', text: "Here's the image you requested:" },
      {
        type: 'image',
        mediaType: 'image/png',
        source: { type: 'base64', data: expect.stringMatching(/^iVBOR/) },
      },
      { type: 'text', text: 'The image above is the MCP logo.' },
    ];
    expect(image.content).toEqual(parts);
    expect(image.structured).toEqual({ parts });

    const structured = await host.execute(
      call('mcp__everything__get-structured-content', { location: 'Chicago' }),
      run,
    );
    expect(structured.isError).toBe(false);
    expect(structured.structured).toMatchObject({ structuredContent: { temperature: expect.any(Number) } });
  });

  it('refuses invalid input before the call reaches the server', async () => {
    const host = (await connect(everything)).toolHost();
    const result = await host.execute(call('mcp__everything__get-sum', { a: 'one', b: 2 }), run);
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_INVALID_INPUT' });
    expect(result.content).toMatch(/must be number/);
  });

  it('denies by policy on the mcp category', async () => {
    const host = (await connect(everything)).toolHost();
    const result = await host.execute(call('mcp__everything__echo', { message: 'x' }), {
      ...run,
      policy: { deny: { categories: ['mcp'] } },
    });
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
  });

  it('times out a long call (TOOL_TIMEOUT) and the server keeps serving', async () => {
    const client = await connect(everything, { timeoutMs: 300 });
    const host = client.toolHost();
    const slow = await host.execute(
      call('mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 }),
      run,
    );
    expect(slow).toMatchObject({ isError: true, errorCode: 'TOOL_TIMEOUT' });
    const echo = await host.execute(call('mcp__everything__echo', { message: 'still here' }), run);
    expect(echo.content).toBe('Echo: still here');
  });

  it('closing ends the server process (no orphan)', async () => {
    const client = await connectMcpServers(everything);
    const pid = client.pids().everything as number;
    expect(isRunning(pid)).toBe(true);
    await client.close();
    expect(isRunning(pid)).toBe(false);
  });
});

describe('connectMcpServers with an SDK server', () => {
  const changing = { changing: { command: process.execPath, args: [CHANGING_SERVER] } };

  it('follows notifications/tools/list_changed: the next listing has the new tool', async () => {
    const client = await connect(changing);
    const host = client.toolHost();
    const listed = () => host.getVisibleTools().map((tool) => tool.name);
    expect(listed()).not.toContain('mcp__changing__added-1');
    const added = await host.execute(call('mcp__changing__add-tool'), run);
    expect(added.content).toBe('added added-1');
    await expect.poll(listed).toContain('mcp__changing__added-1');
    const ran = await host.execute(call('mcp__changing__added-1'), run);
    expect(ran).toMatchObject({ isError: false, content: 'added-1 ran' });
  });

  // The server notes each call's start and its cancellation in a file of the test's own.
  const withCallLog = async () => {
    const log = join(await mkdtemp(join(tmpdir(), 'cairn-mcp-calls-')), 'calls.log');
    const readLog = () => readFile(log, 'utf8').catch(() => '');
    return { servers: { changing: { ...changing.changing, env: { CALL_LOG: log } } }, readLog };
  };

  it('an aborted turn interrupts the call and cancels the request on the server', async () => {
    const { servers, readLog } = await withCallLog();
    const client = await connect(servers);
    const host = client.toolHost();
    const controller = new AbortController();
    const pending = host.execute(call('mcp__changing__wait', { forever: true }), {
      signal: controller.signal,
      approve: () => true,
    });
    await expect.poll(readLog).toBe('started\n');
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, interrupted: true });
    // The server got notifications/cancelled (its handler's signal aborted), and still answers.
    await expect.poll(readLog).toBe('started\ncancelled\n');
    const next = await host.execute(call('mcp__changing__wait', { forever: false }), run);
    expect(next.content).toBe('waited');
  });

  it('a server killed mid-call fails that call, and later calls say it stopped', async () => {
    const { servers, readLog } = await withCallLog();
    const client = await connect(servers);
    const host = client.toolHost();
    const pending = host.execute(call('mcp__changing__wait', { forever: true }), run);
    await expect.poll(readLog).toBe('started\n');
    process.kill(client.pids().changing as number, 'SIGKILL');
    const result = await pending;
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_FAILED' });
    expect(result.content).toMatch(/MCP server "changing" stopped during the call/);
    const later = await host.execute(call('mcp__changing__wait', { forever: false }), run);
    expect(later).toMatchObject({ isError: true, errorCode: 'TOOL_FAILED' });
    expect(later.content).toMatch(/MCP server "changing" has stopped and is not reconnected/);
  });
});

describe('connectMcpServers with server-filesystem', () => {
  it('reads a file of the allowed directory; a path outside is an error result', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-mcp-fs-'));
    try {
      await writeFile(join(dir, 'hello.txt'), 'Hello from MCP\n');
      const client = await connect({ fs: { command: process.execPath, args: [FILESYSTEM_BIN, dir] } });
      const host = client.toolHost();
      const read = await host.execute(call('mcp__fs__read_text_file', { path: join(dir, 'hello.txt') }), run);
      expect(read).toMatchObject({ isError: false });
      expect(read.content).toContain('Hello from MCP');
      const outside = await host.execute(call('mcp__fs__read_text_file', { path: '/etc/hostname' }), run);
      expect(outside).toMatchObject({ isError: true, errorCode: 'TOOL_FAILED' });
      expect(outside.content).toMatch(/denied|outside allowed/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('servers that will not start', () => {
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: CairnError) => error,
    );

  it('a command that does not exist', async () => {
    const error = await failure(connectMcpServers({ broken: { command: '/nonexistent/mcp-server' } }));
    expect(error.code).toBe('MCP_SERVER_FAILED');
    expect(error.message).toMatch(/MCP server "broken" failed to start/);
    expect(error.details).toEqual({ server: 'broken' });
  });

  it('a process that exits at once, with its stderr in the message', async () => {
    const error = await failure(
      connectMcpServers({
        ...everything,
        quits: { command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(3)'] },
      }),
    );
    expect(error.code).toBe('MCP_SERVER_FAILED');
    expect(error.message).toMatch(/MCP server "quits" failed to start/);
    expect(error.message).toMatch(/no config/);
  });

  it('a URL nothing listens on', async () => {
    const error = await failure(
      connectMcpServers({ remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } }),
    );
    expect(error.code).toBe('MCP_SERVER_FAILED');
    expect(error.message).toMatch(/MCP server "remote" failed to start/);
  });
});
