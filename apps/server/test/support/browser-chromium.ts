import { accessSync, constants, createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliDecompress, createBrotliDecompress } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { PACKAGE_DIR } from './browser-server.js';

/**
 * Where the browser tests get Chromium from, in this order:
 *
 * 1. `CHROMIUM_PATH`, when set and not empty: that executable, nothing else;
 * 2. the system's Chromium: Debian's `/usr/bin/chromium`, else `chromium`, `chromium-browser`,
 *    `google-chrome` or `google-chrome-stable` on the PATH;
 * 3. the npm Chromium: `@sparticuz/chromium` (a pinned devDependency; Linux x64 only), unpacked once
 *    into `node_modules/.cache/cairn-chromium/` with the NSS libraries and fonts it ships.
 *
 * `CAIRN_CHROMIUM=system` or `CAIRN_CHROMIUM=npm` allows only that one; without any, the browser
 * tests are skipped with a reason naming what to install, except in CI (`CI=true`), where a
 * missing Chromium fails them instead.
 */
export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'npm';

export interface FoundChromium {
  readonly source: ChromiumSource;
  readonly executablePath: string;
  /** Extra environment for the browser process (the npm Chromium's libraries and fonts). */
  readonly env: Readonly<Record<string, string>>;
}

export type ChromiumLookup =
  | { readonly found: FoundChromium; readonly missing?: undefined }
  | { readonly found?: undefined; readonly missing: string };

const SYSTEM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const NPM_PACKAGE = '@sparticuz/chromium';
const CACHE_DIR = join(PACKAGE_DIR, 'node_modules', '.cache', 'cairn-chromium');
const STAGING_PREFIX = '.unpacking-';
const SYSTEM_HINT = "install Debian's chromium package (apt-get install chromium)";
const NPM_HINT = `run pnpm install on Linux x64 for the npm Chromium (${NPM_PACKAGE})`;

// Headless without a sandbox (containers have no user namespaces), and quiet: no network of its own.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let lookup: Promise<ChromiumLookup> | undefined;

/**
 * Finds a Chromium (see {@link ChromiumSource} for the order), unpacking the npm one on first use.
 * Resolves `missing` with the reason when there is none; throws on a setting that names no browser.
 */
export function findChromium(): Promise<ChromiumLookup> {
  lookup ??= lookUpChromium();
  return lookup;
}

/** True in CI, where the browser tests must run: a missing Chromium fails them rather than skipping. */
export function chromiumRequired(): boolean {
  return process.env.CI === 'true';
}

/** Why the browser tests are skipped, or undefined when they run (found, or required: CI). */
export function chromiumSkipReason(result: ChromiumLookup): string | undefined {
  return result.missing !== undefined && !chromiumRequired() ? result.missing : undefined;
}

/** Launches the Chromium found; fails with the reason when there is none (in CI). */
export async function launchChromium(result: ChromiumLookup): Promise<Browser> {
  if (result.found === undefined) throw new Error(`The browser tests need Chromium: ${result.missing}`);
  const { executablePath, env } = result.found;
  return chromium.launch({
    executablePath,
    args: CHROMIUM_ARGS,
    ...(Object.keys(env).length > 0 ? { env: { ...definedEnv(), ...env } } : {}),
  });
}

async function lookUpChromium(): Promise<ChromiumLookup> {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit !== undefined && explicit !== '') {
    if (!isExecutable(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} is not an executable file`);
    return { found: { source: 'CHROMIUM_PATH', executablePath: explicit, env: {} } };
  }
  const only = process.env.CAIRN_CHROMIUM ?? '';
  if (only !== '' && only !== 'system' && only !== 'npm') {
    throw new Error(`CAIRN_CHROMIUM=${only}: use system, npm, or leave it unset for either`);
  }
  const reasons: string[] = [];
  if (only !== 'npm') {
    const system = systemChromium();
    if (system !== undefined) return { found: { source: 'system', executablePath: system, env: {} } };
    reasons.push(`no system Chromium (${DEBIAN_CHROMIUM}, or ${SYSTEM_COMMANDS.join(', ')} on the PATH)`);
  }
  if (only !== 'system') {
    const npm = await npmChromium();
    if (typeof npm !== 'string') return { found: npm };
    reasons.push(npm);
  }
  const hints = only === 'system' ? [SYSTEM_HINT] : only === 'npm' ? [NPM_HINT] : [SYSTEM_HINT, NPM_HINT];
  const scope = only === '' ? '' : ` (CAIRN_CHROMIUM=${only})`;
  return { missing: `${reasons.join(' and ')}${scope}: ${[...hints, 'or set CHROMIUM_PATH'].join(', ')}` };
}

function systemChromium(): string | undefined {
  if (isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const command of SYSTEM_COMMANDS) {
    for (const dir of dirs) {
      const candidate = join(dir, command);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The npm Chromium, unpacked, or why there is none. */
async function npmChromium(): Promise<FoundChromium | string> {
  // The package ships one build of chrome-headless-shell: Linux x64 (glibc).
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `no npm Chromium for ${process.platform}-${process.arch} (${NPM_PACKAGE} is Linux x64 only)`;
  }
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(NPM_PACKAGE);
  } catch {
    return `no npm Chromium (${NPM_PACKAGE} is not installed)`;
  }
  // Its exports name only the entry point; the archives are in bin/ at the package's root.
  const { root, version } = await packageRoot(entry);
  const binDir = join(root, 'bin');
  const dir = join(CACHE_DIR, `sparticuz-${version}`);
  if (!existsSync(dir)) await unpackNpmChromium(binDir, dir);
  return {
    source: 'npm',
    executablePath: join(dir, 'chromium'),
    env: {
      // Its NSS libraries (built for Amazon Linux 2023, whose glibc is older than any current
      // distribution's), so that a machine without libnss3 runs it too.
      LD_LIBRARY_PATH: [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter),
      FONTCONFIG_FILE: join(dir, 'fonts.conf'),
    },
  };
}

/** The directory of the package.json naming the npm Chromium, above its entry point. */
async function packageRoot(entry: string): Promise<{ root: string; version: string }> {
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(await readFile(manifest, 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (name === NPM_PACKAGE && version !== undefined) return { root: dir, version };
  }
  throw new Error(`no package.json of ${NPM_PACKAGE} above ${entry}`);
}

/**
 * Unpacks the brotli-compressed Chromium, its libraries and fonts into `dir`. The package's own
 * `executablePath()` is not used: it writes straight to `/tmp/chromium`, shared by every version and
 * every user, and a second process that starts while the first is still writing gets the
 * half-written file. Here each process unpacks into a private staging directory and renames it to
 * `dir` in one step, so `dir` exists only complete; when two race, the second rename fails and that
 * process uses the winner's copy.
 */
async function unpackNpmChromium(binDir: string, dir: string): Promise<void> {
  await mkdir(CACHE_DIR, { recursive: true });
  await removeAbandonedStaging();
  const staging = await mkdtemp(join(CACHE_DIR, `${STAGING_PREFIX}${process.pid}-`));
  try {
    await pipeline(
      createReadStream(join(binDir, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
    );
    await extractTar(await readBrotli(join(binDir, 'al2023.tar.br')), staging); // lib/*.so
    await extractTar(await readBrotli(join(binDir, 'fonts.tar.br')), staging); // fonts/, fonts.conf (Lambda's)
    // The system's fonts when there are any, and the package's Open Sans when there are none.
    await writeFile(
      join(staging, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${xmlText(join(dir, 'fonts'))}</dir>`,
        `  <cachedir>${xmlText(join(dir, 'fontconfig-cache'))}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process renamed its complete copy into place first.
    if (existsSync(join(dir, 'chromium'))) return;
    throw error;
  }
  // Copies of other versions (from before an upgrade) are no longer used.
  for (const name of await readdir(CACHE_DIR)) {
    if (name.startsWith('sparticuz-') && join(CACHE_DIR, name) !== dir) {
      await rm(join(CACHE_DIR, name), { recursive: true, force: true });
    }
  }
}

/** Staging directories left by a process that died while unpacking (its pid is in the name). */
async function removeAbandonedStaging(): Promise<void> {
  for (const name of await readdir(CACHE_DIR)) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      await rm(join(CACHE_DIR, name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readBrotli(path: string): Promise<Buffer> {
  const compressed = await readFile(path);
  return new Promise((resolve, reject) =>
    brotliDecompress(compressed, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/**
 * Extracts a tar archive's directories and regular files (all the package's archives hold) into
 * `into`; anything else, or a name leaving `into`, is an error rather than silently skipped.
 */
async function extractTar(archive: Buffer, into: string): Promise<void> {
  const field = (header: Buffer, start: number, length: number) =>
    header
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break; // the end-of-archive blocks
    const prefix = field(header, 345, 155);
    const name = prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const mode = Number.parseInt(field(header, 100, 8).trim() || '644', 8) & 0o777;
    const type = field(header, 156, 1) || '0';
    const path = normalize(join(into, name));
    if (isAbsolute(name) || !path.startsWith(`${normalize(into)}${sep}`)) {
      throw new Error(`tar entry ${name} would be written outside ${into}`);
    }
    const body = offset + 512;
    if (type === '5') {
      await mkdir(path, { recursive: true });
    } else if (type === '0') {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, archive.subarray(body, body + size), { mode });
    } else {
      throw new Error(`tar entry ${name} has type ${type}; only files and directories are expected`);
    }
    offset = body + Math.ceil(size / 512) * 512;
  }
}

function xmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function definedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
