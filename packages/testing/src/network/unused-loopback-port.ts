import { connect } from 'node:net';

// Below every OS's ephemeral range (Linux 32768+, macOS and Windows 49152+): a server
// another test starts on port 0 can never be handed it between our check and its use.
const LOWEST = 20_000;
const HIGHEST = 32_000;

/** True when a connection to the loopback port is refused, i.e. nothing listens there. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/**
 * A loopback port nothing listens on and no test server can come to listen on: for tests of
 * "cannot reach" errors. A port bound and released is not that: in a parallel run another
 * test's server may get it next.
 */
export async function unusedLoopbackPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST));
    if (await refused(port)) return port;
  }
  throw new Error(`no refused loopback port found in ${LOWEST}–${HIGHEST}`);
}
