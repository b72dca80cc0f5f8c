/**
 * The program that runs first inside the private network namespace, as plain JavaScript for
 * `node --input-type=module -e` (so it needs no file on disk). argv: `<socket> <port> <command>
 * [args…]`. It listens on `127.0.0.1:<port>` and pipes each connection to the Unix socket that
 * leads to the stand-in in the host namespace, then runs the command and ends as it ends.
 *
 * Signals to the process group reach the command itself; the forwarder ignores them so it keeps
 * forwarding while the CLI winds down, and then re-raises the signal that ended the command so
 * the caller sees the CLI's own exit.
 */
export const NAMESPACE_FORWARDER_SOURCE = `
import { spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
const [socketPath, port, command, ...args] = process.argv.slice(1);
const open = new Set();
const server = createServer((inbound) => {
  const outbound = createConnection(socketPath);
  for (const socket of [inbound, outbound]) { open.add(socket); socket.on('close', () => open.delete(socket)); }
  inbound.pipe(outbound); outbound.pipe(inbound);
  const destroyBoth = () => { inbound.destroy(); outbound.destroy(); };
  inbound.on('error', destroyBoth).on('close', destroyBoth);
  outbound.on('error', destroyBoth).on('close', destroyBoth);
});
const ignore = () => {};
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, ignore);
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('error', (error) => { process.stderr.write('namespace forwarder: ' + error.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => {
    for (const socket of open) socket.destroy();
    server.close();
    if (signal) { for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeListener(name, ignore); process.kill(process.pid, signal); }
    else process.exit(code ?? 1);
  });
});
`;
