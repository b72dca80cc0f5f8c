// docs/getting-started.md, run literally as a new user types it: its ```sh blocks run with bash
// (`mkdir`, `npm init -y`, `npm install @cairn/…`) in an empty directory, a ```js block whose first
// line is `// <file>` is saved under that name where the commands are, and the output of the last
// block's command is compared with the "It prints:" block after it. npm installs the @cairn
// packages from their packed tarballs (`pnpm pack`), served by a stand-in registry for the @cairn
// scope; everything else comes from the machine's registry, as for the user.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { userShellEnv } from '@cairn/vitest-config/user-shell-env';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
interface WorkspacePackage {
  manifest: { name: string };
}
const { cairnClosure, readPublicPackages } = (await import(
  new URL('../scripts/workspace-packages.mjs', import.meta.url).href
)) as {
  readPublicPackages(root: string): WorkspacePackage[];
  cairnClosure(
    byName: Map<string, WorkspacePackage>,
    names: string[],
    options: { withOptionalPeers: boolean },
  ): { names: string[] };
};
const root = fileURLToPath(new URL('../../', import.meta.url));
const guidePath = join(root, 'docs', 'getting-started.md');
const STEP_TIMEOUT_MS = 5 * 60_000;

interface Step {
  language: string;
  code: string;
  /** The "It prints:" ```text block right after this step's block, if any. */
  printed?: string;
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;

/** The guide's ```sh and ```js blocks in order, each with the "It prints:" block after it. */
function guideSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const [block, language = '', code = ''] of markdown.matchAll(FENCE)) {
    const before = markdown.slice(0, markdown.indexOf(block));
    if (language === 'text' && /It prints:\s*$/.test(before)) {
      const last = steps.at(-1);
      if (last !== undefined) last.printed = code;
    } else if (language === 'sh' || language === 'js') steps.push({ language, code });
  }
  return steps;
}

/** The @cairn packages `names` need (dependencies and required peers), transitively. */
function cairnPackages(names: string[]): string[] {
  const byName = new Map(readPublicPackages(root).map((pkg) => [pkg.manifest.name, pkg]));
  return cairnClosure(byName, names, { withOptionalPeers: false }).names;
}

/** Packs `packages` with pnpm into `dir`; returns each tarball's packed manifest and file. */
async function pack(packages: string[], dir: string) {
  const filters = packages.flatMap((name) => ['--filter', name]);
  const { stdout } = await exec(
    'npx',
    ['-y', 'pnpm@10.34.9', '-r', ...filters, 'pack', '--pack-destination', dir, '--json'],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; filename: string }[];
  const tarballs = new Map<string, { file: string; manifest: Record<string, unknown> }>();
  for (const { name, filename } of packed) {
    const { stdout: manifest } = await exec('tar', ['-xzOf', filename, 'package/package.json']);
    tarballs.set(name, { file: filename, manifest: JSON.parse(manifest) });
  }
  return tarballs;
}

/** A registry for the @cairn scope that serves the tarballs (and 404 for anything else). */
async function serveTarballs(
  tarballs: Map<string, { file: string; manifest: Record<string, unknown> }>,
): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(request.url ?? '').replace(/^\//, '');
    const tarball = [...tarballs.values()].find((entry) => path === `tarballs/${basename(entry.file)}`);
    if (tarball !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(await readFile(tarball.file));
      return;
    }
    const packument = tarballs.get(path);
    if (packument === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    const { name, version } = packument.manifest as { name: string; version: string };
    const tarballUrl = `${url}tarballs/${basename(packument.file)}`;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        name,
        'dist-tags': { latest: version },
        versions: { [version]: { ...packument.manifest, dist: { tarball: tarballUrl } } },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  return { server, url };
}

let cleanUp: () => Promise<void> = async () => {};
afterAll(() => cleanUp());

describe('docs/getting-started.md, typed literally into an empty directory', () => {
  it('installs, runs and prints what it says', { timeout: 900_000 }, async () => {
    const markdown = await readFile(guidePath, 'utf8');
    const steps = guideSteps(markdown);
    const installed = [...markdown.matchAll(/@cairn\/[\w-]+/g)].map(([name]) => name);
    const work = await mkdtemp(join(tmpdir(), 'cairn-getting-started-'));
    const tarballs = await pack(cairnPackages(installed), work);
    const { server, url } = await serveTarballs(tarballs);
    cleanUp = async () => {
      server.close();
      await rm(work, { recursive: true, force: true });
    };
    const env = userShellEnv({ 'npm_config_@cairn:registry': url });
    const user = join(work, 'user');
    await mkdir(user);

    let cwd = user;
    for (const step of steps) {
      if (step.language === 'js') {
        const file = /^\/\/ ([\w.-]+\.[cm]?js)\n/.exec(step.code)?.[1];
        expect(file, `a js block does not start with // <file>:\n${step.code}`).toBeDefined();
        await writeFile(join(cwd, file as string), step.code);
        continue;
      }
      // One bash per block; where it ends up (`cd`) is where the next block runs.
      const pwdFile = join(work, 'pwd');
      const script = `set -e\n${step.code}\npwd > ${JSON.stringify(pwdFile)}\n`;
      // A step that cannot reach the registry fails with npm's own error instead of hanging the test.
      const { stdout, stderr } = await exec('bash', ['-c', script], {
        cwd,
        env,
        timeout: STEP_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      });
      const pwd = (await readFile(pwdFile, 'utf8')).trim();
      cwd = pwd;
      if (step.printed !== undefined) expect(stdout, `${step.code}\nstderr:\n${stderr}`).toBe(step.printed);
    }
    expect(steps.some((step) => step.printed !== undefined)).toBe(true);
  });
});
