import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Unix socket whose connections are piped to a TCP port of this (the host's) network namespace. */
export interface UnixSocketBridge {
  readonly socketPath: string;
  close(): Promise<void>;
}

/** Joins two sockets both ways; either one failing or ending closes the other. */
export function pipeSockets(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const destroyBoth = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', destroyBoth).on('close', destroyBoth);
  b.on('error', destroyBoth).on('close', destroyBoth);
}

/**
 * Listens on a fresh Unix socket and forwards each connection to `127.0.0.1:<port>`. A process in
 * a private network namespace cannot reach the host's loopback, but it shares the filesystem, so
 * the socket is the one way in (see `namespace-forwarder.ts` for the other end).
 */
export async function startUnixSocketBridge(port: number): Promise<UnixSocketBridge> {
  // Short on purpose: a socket path is limited to ~107 bytes.
  const directory = await mkdtemp(join(tmpdir(), 'cairn-bridge-'));
  const socketPath = join(directory, 'api.sock');
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = createConnection(port, '127.0.0.1');
    for (const socket of [inbound, outbound]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    }
    pipeSockets(inbound, outbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
