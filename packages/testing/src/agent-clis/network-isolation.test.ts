import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCliIsolation, isolatedCommand } from './network-isolation.js';
import { startUnixSocketBridge, type UnixSocketBridge } from './unix-socket-bridge.js';

function run(
  command: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Connects to each port in turn and prints what each answered, or the connection error's code.
const PROBE = `
import { connect } from 'node:net';
for (const port of process.argv.slice(1)) {
  const answer = await new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => { data += chunk; });
    socket.on('end', () => resolve(data));
    socket.on('error', (error) => resolve(error.code));
  });
  console.log(port + ' ' + answer);
}
`;

const servers: Server[] = [];
async function hostServer(reply: string): Promise<number> {
  const server = createServer((socket) => socket.end(reply));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const isolation = agentCliIsolation();

describe.skipIf(isolation.kind !== 'network-namespace')('a command run isolated', () => {
  let bridge: UnixSocketBridge;
  let standInPort: number;
  let otherPort: number;
  beforeAll(async () => {
    standInPort = await hostServer('stand-in');
    otherPort = await hostServer('host service');
    bridge = await startUnixSocketBridge(standInPort);
  });
  afterAll(async () => {
    await bridge.close();
    for (const server of servers) server.close();
  });

  it('reaches the stand-in through the bridge but no other TCP port of the host', async () => {
    // Both ports answer from the host namespace itself: the probe is sound.
    const host = await run(process.execPath, [
      '--input-type=module',
      '-e',
      PROBE,
      String(standInPort),
      String(otherPort),
    ]);
    expect(host.stdout).toBe(`${standInPort} stand-in\n${otherPort} host service\n`);

    const isolated = isolatedCommand(
      process.execPath,
      ['--input-type=module', '-e', PROBE, String(standInPort), String(otherPort)],
      { socketPath: bridge.socketPath, port: standInPort },
    );
    const result = await run(isolated.command, isolated.args);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${standInPort} stand-in\n${otherPort} ECONNREFUSED\n`);
  });

  it('has no network interface but loopback', async () => {
    const isolated = isolatedCommand(
      process.execPath,
      ['-e', 'console.log(Object.keys(require("node:os").networkInterfaces()).join(","))'],
      { socketPath: bridge.socketPath, port: standInPort },
    );
    const result = await run(isolated.command, isolated.args);
    expect(result.stdout.trim()).toBe('lo');
  });

  it('ends with the command’s exit code', async () => {
    const isolated = isolatedCommand(process.execPath, ['-e', 'process.exit(7)'], {
      socketPath: bridge.socketPath,
      port: standInPort,
    });
    expect((await run(isolated.command, isolated.args)).code).toBe(7);
  });
});

describe('isolation detection', () => {
  it('says why a run is not isolated when it is not', () => {
    if (isolation.kind === 'loopback-only') expect(isolation.reason).not.toBe('');
    else expect(isolation.description).toBe('unshare -n');
  });
});
