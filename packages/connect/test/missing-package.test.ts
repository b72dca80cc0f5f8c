// The built package in a separate Node process, with some optional peers made to resolve as if not
// installed (from a directory without node_modules, so Node's own ERR_MODULE_NOT_FOUND is what
// connect sees): choosing one is PACKAGE_MISSING naming it, while a module missing deeper inside
// an installed one still surfaces as itself. Needs dist: the vitest global setup builds it when stale.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// @cairn/store-sqlite and @cairn/provider-gemini are "not installed"; postgres's driver `pg` is not
// either, while @cairn/store-postgres itself is.
const HOOKS = `
const NOWHERE = 'file:///nonexistent-cairn-project/index.js';
export async function resolve(specifier, context, next) {
  const missing =
    specifier === '@cairn/store-sqlite' ||
    specifier === '@cairn/provider-gemini' ||
    (specifier === 'pg' && context.parentURL?.includes('/store-postgres/'));
  return next(specifier, missing ? { ...context, parentURL: NOWHERE } : context);
}`;

const SCRIPT = `
import { register } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));
const connect = await import('@cairn/connect');
const show = (error) => console.log(connect.formatErrorLine('app', error), connect.exitCodeFor(error));
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-connect-missing-'));
await connect.openStore({ store: 'sqlite', dataDir }).catch(show);
await connect.createProviderAdapter('gemini', { model: 'm', apiKey: 'k' }).catch(show);
await connect.openStore({ store: 'postgres', dataDir, databaseUrl: 'postgres://localhost/x' }).catch((error) =>
  console.log(error.code, error.message.split(' imported from')[0]),
);
`;

describe('the built package without an optional peer', () => {
  it('names the package to install, and lets a missing dependency of an installed one surface as itself', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    expect(stdout.trim().split('\n')).toEqual([
      'app: the sqlite store needs @cairn/store-sqlite, which is not installed [PACKAGE_MISSING] — run: npm install @cairn/store-sqlite 2',
      'app: the gemini provider needs @cairn/provider-gemini, which is not installed [PACKAGE_MISSING] — run: npm install @cairn/provider-gemini 2',
      "ERR_MODULE_NOT_FOUND Cannot find package 'pg'",
    ]);
  });
});
