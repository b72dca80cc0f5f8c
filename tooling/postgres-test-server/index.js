// Starts a throwaway PostgreSQL server for tests: initdb into a fresh temp dir, pg_ctl start on a free
// loopback port, trust auth, no fsync. Uses only node: built-ins, so the package needs no build or install.
// PostgreSQL refuses to run as root; when this process is root, initdb and pg_ctl run as the `postgres` user.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const RUN_AS = 'postgres';
const LOG_TAIL_LINES = 40;
const PORT_ATTEMPTS = 3;

/** Servers this process started or is starting and has not stopped yet; stopped on process exit. */
const live = new Set();
let exitHookInstalled = false;

function hasServerBinaries(dir) {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
}

function compareVersionsDesc(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * The directory holding initdb and pg_ctl: `pg_config --bindir` if that has them, else the highest
 * version under /usr/lib/postgresql/<version>/bin (Debian, Ubuntu), else wherever `initdb` is on PATH.
 */
export function findPostgresBinDir() {
  try {
    const bindir = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (bindir && hasServerBinaries(bindir)) return bindir;
  } catch {
    // no pg_config (or a client-only one): try the other places
  }

  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((name) => /^\d+(\.\d+)*$/.test(name) && hasServerBinaries(join(debianRoot, name, 'bin')))
      .sort(compareVersionsDesc);
    if (versions[0]) return join(debianRoot, versions[0], 'bin');
  }

  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || !existsSync(join(dir, 'initdb'))) continue;
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
    // e.g. a symlink in /usr/local/bin without pg_ctl beside it: look next to the real binary
    const realDir = dirname(realpathSync(join(dir, 'initdb')));
    if (hasServerBinaries(realDir)) return realDir;
  }

  throw new Error(
    'PostgreSQL server binaries (initdb, pg_ctl) not found: looked at `pg_config --bindir`, ' +
      '/usr/lib/postgresql/*/bin and PATH. On Debian or Ubuntu install them with ' +
      '`apt-get install postgresql` (the Debian package `postgresql`), or set DATABASE_URL to an existing server.',
  );
}

/** A free TCP port on 127.0.0.1, found by listening on port 0 and closing again. */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}

/** Quotes one word for /bin/sh. */
function shellQuote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function findRunuser() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  for (const dir of dirs) {
    if (dir && existsSync(join(dir, 'runuser'))) return join(dir, 'runuser');
  }
  return undefined;
}

function lookupUser(name) {
  try {
    const id = (flag) =>
      Number(
        execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
      );
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      `PostgreSQL refuses to run as root, and there is no '${name}' system user to run it as. ` +
        `Installing the Debian package \`postgresql\` creates that user; or run the tests as a non-root user.`,
    );
  }
}

/**
 * How to run a PostgreSQL binary: directly, or as the `postgres` user when this process is root
 * (`runuser -u postgres --`, falling back to `su postgres -s /bin/sh -c`).
 */
function commandRunner() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return { user: undefined, wrap: (file, args) => ({ file, args }) };
  }
  const user = lookupUser(RUN_AS);
  const runuser = findRunuser();
  if (runuser) {
    return { user, wrap: (file, args) => ({ file: runuser, args: ['-u', RUN_AS, '--', file, ...args] }) };
  }
  return {
    user,
    wrap: (file, args) => ({
      file: 'su',
      args: [RUN_AS, '-s', '/bin/sh', '-c', [file, ...args].map(shellQuote).join(' ')],
    }),
  };
}

function run(runner, file, args, cwd, children) {
  const command = runner.wrap(file, args);
  return new Promise((resolve) => {
    const child = spawn(command.file, command.args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    child.once('close', () => children.delete(child));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', (error) => resolve({ code: -1, output: `${output}${error.message}\n` }));
    child.once('close', (code, signal) =>
      resolve({ code: code ?? -1, output: signal ? `${output}killed by ${signal}\n` : output }),
    );
  });
}

function runSync(runner, file, args, cwd) {
  const command = runner.wrap(file, args);
  try {
    execFileSync(command.file, command.args, { cwd, stdio: 'ignore', timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}

function tail(text, lines = LOG_TAIL_LINES) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function readLogTail(logFile) {
  try {
    return tail(readFileSync(logFile, 'utf8'));
  } catch {
    return '(no server log was written)';
  }
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Prepended: an earlier 'exit' listener that calls process.exit() (vitest's does, after a signal) ends
  // the process on the spot, and listeners after it never run.
  process.prependListener('exit', stopAllSync);
}

/**
 * Synchronously stops (`pg_ctl stop -m immediate`) and deletes every server this process started or is
 * starting. For exit and signal handlers; runs on process exit by itself.
 */
export function stopAllSync() {
  for (const entry of [...live]) entry.stopSync();
}

/**
 * Starts a throwaway PostgreSQL server on 127.0.0.1 with trust auth for user `postgres`.
 * `stop()` shuts it down and deletes its files; calling it again does nothing.
 */
export async function startPostgres(options = {}) {
  const log = options.log ?? (() => {});
  const binDir = findPostgresBinDir();
  const initdb = join(binDir, 'initdb');
  const pgCtl = join(binDir, 'pg_ctl');
  const runner = commandRunner();
  installExitHook();

  const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'log');
  const children = new Set();
  let stopped = false;
  let stopping;

  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    live.delete(entry);
    // Interrupted mid-start: end initdb / pg_ctl (runuser and su pass SIGTERM on to them).
    for (const child of children) child.kill('SIGTERM');
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      runSync(runner, pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop'], dir);
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  const entry = { stopSync };
  live.add(entry);

  const step = async (args) => {
    const result = await run(runner, args[0], args.slice(1), dir, children);
    if (stopped) throw new Error('PostgreSQL start interrupted: the server was stopped while starting');
    return result;
  };
  const fail = (message) => {
    stopSync();
    return new Error(message);
  };

  if (runner.user) chownSync(dir, runner.user.uid, runner.user.gid);

  log(`initdb ${dataDir} (binaries in ${binDir}${runner.user ? `, as user ${RUN_AS}` : ''})`);
  const init = await step([
    initdb,
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  if (init.code !== 0) throw fail(`initdb failed (exit ${init.code}):\n${tail(init.output)}`);

  let port = options.port;
  let lastFailure = '';
  for (let attempt = 1; attempt <= (options.port ? 1 : PORT_ATTEMPTS); attempt++) {
    if (!options.port) port = await findFreePort();
    const serverOptions = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${shellQuote(dir)}`,
      '-c fsync=off',
      '-c max_connections=200',
    ].join(' ');
    log(`pg_ctl start on 127.0.0.1:${port}`);
    const start = await step([pgCtl, '-D', dataDir, '-o', serverOptions, '-w', '-l', logFile, 'start']);
    if (start.code === 0) {
      lastFailure = '';
      break;
    }
    const logTail = readLogTail(logFile);
    lastFailure =
      `pg_ctl start on port ${port} failed (exit ${start.code}):\n${tail(start.output)}\n` +
      `Server log, last lines:\n${logTail}`;
    // Make sure nothing half-started stays behind before retrying or giving up.
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      runSync(runner, pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop'], dir);
    }
    // Another process took the port between our probe and the server's bind: try another one.
    if (!/could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(logTail)) break;
  }
  if (lastFailure) throw fail(lastFailure);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  log(`PostgreSQL ready at ${url}`);

  return {
    url,
    port,
    dataDir,
    stop() {
      stopping ??= (async () => {
        if (stopped) return;
        const result = await run(runner, pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop'], dir, children);
        if (stopped) return; // stopSync ran meanwhile (exit or signal) and did the rest
        if (result.code !== 0) log(`pg_ctl stop failed (exit ${result.code}):\n${tail(result.output)}`);
        stopSync();
        log(`PostgreSQL on port ${port} stopped`);
      })();
      return stopping;
    },
    stopSync,
  };
}
