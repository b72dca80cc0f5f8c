// A dry run of `pnpm changeset version`: copies the working tree's files (tracked and untracked,
// minus what .gitignore excludes) to a temp dir, makes it a git repository, runs the command there
// with the pending changesets, and checks the result: the fixed group shares one new version,
// every released package with a pending changeset got a new version and a changelog — the public
// packages and the reference apps (private, never published, but versioned so `cairn --version`
// names a release) — the tooling packages kept theirs and got no changelog, every changeset was consumed.
//
// Run alone: node tooling/scripts/check-versioning.mjs [--keep]; check-packages.mjs runs it too.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, PNPM, run, tail } from './check-run.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKSPACE_DIRS = ['packages', 'apps', 'tooling'];

const majorOf = (version) => Number(version.split('.')[0]);

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** { dir, name, version, tooling } for every workspace package under `root`. */
function workspacePackages(root) {
  const packages = [];
  for (const group of WORKSPACE_DIRS) {
    if (!existsSync(join(root, group))) continue;
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const manifestPath = join(root, group, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = readJson(manifestPath);
      packages.push({
        dir: `${group}/${entry.name}`,
        name: manifest.name,
        version: manifest.version,
        // Private and never versioned: build and test settings (the apps are versioned, not published).
        tooling: group === 'tooling',
      });
    }
  }
  return packages;
}

/** Package names the pending changesets in `.changeset/` release, and those they release as major. */
function pendingReleases(root) {
  const released = new Set();
  const majors = new Set();
  const dir = join(root, '.changeset');
  const files = readdirSync(dir).filter((file) => file.endsWith('.md') && file !== 'README.md');
  for (const file of files) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? '';
    for (const match of front.matchAll(/^\s*['"]?([^'":\s]+)['"]?\s*:\s*(major|minor|patch)\s*$/gm)) {
      released.add(match[1]);
      if (match[2] === 'major') majors.add(match[1]);
    }
  }
  return { files, released, majors };
}

/**
 * Runs the dry run; returns { ok, problems, summary, dir }. The temp dir is deleted unless `keep`.
 */
export async function checkVersioning({ keep = false } = {}) {
  const problems = [];
  const config = readJson(join(ROOT, '.changeset/config.json'));
  const fixed = config.fixed ?? [];
  if (config.privatePackages?.version !== true)
    problems.push('config: privatePackages.version is not true (the apps are versioned)');
  if (config.privatePackages?.tag !== false) problems.push('config: privatePackages.tag is not false');

  const dir = mkdtempSync(join(tmpdir(), 'cairn-check-versioning-'));
  try {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\0')
      .filter((file) => file && existsSync(join(ROOT, file)));
    for (const file of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(join(ROOT, file), join(dir, file));
    }
    // The changesets CLI and pnpm's view of the workspace come from the repository's install.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');

    const git = (...args) =>
      execFileSync(
        'git',
        [
          '-c',
          'user.name=check-versioning',
          '-c',
          'user.email=check@localhost',
          '-c',
          'commit.gpgsign=false',
          ...args,
        ],
        { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'snapshot');

    const before = workspacePackages(dir);
    const { files: changesets, released, majors } = pendingReleases(dir);
    const byName = new Map(before.map((pkg) => [pkg.name, pkg]));
    for (const name of released)
      if (!byName.has(name)) problems.push(`a changeset releases ${name}, not in the workspace`);
    for (const name of fixed.flat())
      if (!byName.has(name)) problems.push(`config: fixed names ${name}, not in the workspace`);

    const result = await run('npx', [...PNPM, 'changeset', 'version'], {
      cwd: dir,
      env: childEnv(),
      timeoutMs: 180_000,
    });
    if (result.code !== 0) {
      problems.push(
        `pnpm changeset version failed (exit ${result.code}): ${tail(result.stderr + result.stdout)}`,
      );
      return { ok: false, problems, summary: '', dir };
    }

    const after = new Map(workspacePackages(dir).map((pkg) => [pkg.name, pkg]));
    const changed = git('status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    const summary = [];

    for (const group of fixed) {
      const versions = new Set(group.map((name) => after.get(name)?.version));
      const touched = group.some((name) => released.has(name));
      const [version] = versions;
      if (versions.size !== 1) {
        problems.push(
          `fixed group ${group.join(', ')} got different versions: ${group.map((name) => `${name}@${after.get(name)?.version}`).join(', ')}`,
        );
      } else if (touched && group.some((name) => byName.get(name)?.version === version)) {
        problems.push(`fixed group ${group.join(', ')} has pending changesets but kept version ${version}`);
      } else {
        summary.push(`fixed ${group.map((name) => name.replace('@cairn/', '')).join('+')} → ${version}`);
      }
    }

    const bumped = [];
    for (const pkg of before) {
      const now = after.get(pkg.name);
      if (pkg.tooling) {
        if (now?.version !== pkg.version)
          problems.push(`tooling ${pkg.name} went from ${pkg.version} to ${now?.version}`);
        if (changed.includes(`${pkg.dir}/CHANGELOG.md`))
          problems.push(`tooling ${pkg.name} got a CHANGELOG.md`);
        continue;
      }
      // changesets bumps a package to major when a peer dependency of it changes out of range: a
      // breaking release nobody asked for (this caught @cairn/connect going 0.0.0 → 1.0.0).
      if (now !== undefined && majorOf(now.version) > majorOf(pkg.version) && !majors.has(pkg.name))
        problems.push(`${pkg.name} went from ${pkg.version} to ${now.version} without a major changeset`);
      if (
        released.has(pkg.name) ||
        fixed.some((group) => group.includes(pkg.name) && group.some((name) => released.has(name)))
      ) {
        if (now?.version === pkg.version)
          problems.push(`${pkg.name} has a pending changeset but kept version ${pkg.version}`);
        else if (!changed.includes(`${pkg.dir}/CHANGELOG.md`))
          problems.push(`${pkg.name} got no CHANGELOG.md`);
        else bumped.push(`${pkg.name.replace('@cairn/', '')}@${now.version}`);
      }
    }
    const left = changesets.filter((file) => existsSync(join(dir, '.changeset', file)));
    if (left.length > 0) problems.push(`changesets not consumed: ${left.join(', ')}`);
    const tooling = before.filter((pkg) => pkg.tooling);
    summary.push(`${bumped.length} packages and apps versioned (${bumped.join(', ')})`);
    summary.push(`${tooling.length} tooling packages unversioned`);
    summary.push(`${changesets.length} changesets consumed`);
    return { ok: problems.length === 0, problems, summary: summary.join('; '), dir };
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const keep = process.argv.includes('--keep');
  const started = performance.now();
  const { ok, problems, summary, dir } = await checkVersioning({ keep });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (ok) console.log(`ok  versioning: ${summary} (${seconds}s)`);
  else console.log(`FAIL versioning: ${problems.join('; ')} (${seconds}s)`);
  if (keep) console.log(`kept ${dir}`);
  process.exitCode = ok ? 0 : 1;
}
