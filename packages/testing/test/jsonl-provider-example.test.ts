import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userShellEnv } from '@cairn/vitest-config/user-shell-env';
import { afterAll, describe, expect, it } from 'vitest';

// examples/jsonl-provider, run as a user outside this repository runs it: the @cairn packages it
// uses packed into tarballs, `npm install`ed with vitest into an empty directory, its own
// `vitest run` driving the whole conformance kit on its adapter and its NDJSON mock protocol.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/jsonl-provider');
const PACKED = ['@cairn/core', '@cairn/provider-utils', '@cairn/testing'];
const STEP_TIMEOUT_MS = 6 * 60_000;

const env = userShellEnv();

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env, timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

const workDir = mkdtempSync(join(tmpdir(), 'cairn-jsonl-provider-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('examples/jsonl-provider', () => {
  it(
    'passes the whole conformance kit from outside the workspace, on packed tarballs',
    async () => {
      const tarballs = join(workDir, 'tarballs');
      const filters = PACKED.flatMap((name) => ['--filter', name]);
      const pack = await run(
        'npx',
        ['-y', 'pnpm@10.34.9', ...filters, 'pack', '--pack-destination', tarballs],
        ROOT,
      );
      expect(pack.code, pack.output).toBe(0);
      const files = readdirSync(tarballs);
      const tarballOf = (name: string) => {
        const file = files.find((each) => each.startsWith(`${name.replace('@', '').replace('/', '-')}-`));
        if (file === undefined) throw new Error(`no tarball for ${name} in ${files.join(', ')}`);
        return `file:${join(tarballs, file)}`;
      };

      const project = join(workDir, 'project');
      cpSync(EXAMPLE, project, {
        recursive: true,
        filter: (path) => !path.includes('node_modules'),
      });
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      for (const deps of [manifest.dependencies, manifest.devDependencies]) {
        for (const name of Object.keys(deps)) if (PACKED.includes(name)) deps[name] = tarballOf(name);
      }
      writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

      const install = await run('npm', ['install', '--no-audit', '--no-fund'], project);
      expect(install.code, install.output).toBe(0);

      const kit = await run(join(project, 'node_modules/.bin/vitest'), ['run', '--reporter=json'], project);
      const report = JSON.parse(
        kit.output.slice(kit.output.indexOf('{'), kit.output.lastIndexOf('}') + 1),
      ) as {
        numTotalTests: number;
        numPassedTests: number;
        testResults: Array<{
          assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
        }>;
      };
      const notPassed = report.testResults
        .flatMap((file) => file.assertionResults)
        .filter((test) => test.status !== 'passed')
        .map((test) => `${test.status}: ${test.fullName}\n${test.failureMessages.join('\n').slice(0, 2000)}`);
      expect(notPassed).toEqual([]);
      expect(kit.code).toBe(0);
      expect(report.numPassedTests, 'every case of the kit ran').toBe(
        (await import('../src/conformance/conformance-cases.js')).MODEL_ADAPTER_CONFORMANCE_CASES.length,
      );
    },
    3 * STEP_TIMEOUT_MS,
  );
});
