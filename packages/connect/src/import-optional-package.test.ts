import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { importOptionalPackage } from './import-optional-package.js';

/** An error shaped as Node's loaders throw it. */
const notFound = (code: string, message: string) => Object.assign(new Error(message), { code });

const failing = (error: unknown) => () => Promise.reject(error);

describe('importOptionalPackage', () => {
  it('returns what the package exports', async () => {
    const module = { createStore: () => 'store' };
    await expect(
      importOptionalPackage('@cairn/store-sqlite', 'the sqlite store', async () => module),
    ).resolves.toBe(module);
  });

  it.each([
    [
      'ESM',
      'ERR_MODULE_NOT_FOUND',
      "Cannot find package '@cairn/store-sqlite' imported from /app/node_modules/@cairn/connect/dist/open-store.js",
    ],
    [
      'CommonJS',
      'MODULE_NOT_FOUND',
      "Cannot find module '@cairn/store-sqlite'\nRequire stack:\n- /app/index.cjs",
    ],
  ])(
    'turns the package itself missing (%s) into PACKAGE_MISSING naming it and the install command',
    async (_, code, message) => {
      const cause = notFound(code, message);
      const error = await importOptionalPackage(
        '@cairn/store-sqlite',
        'the sqlite store',
        failing(cause),
      ).catch((error: unknown) => error);
      expect(CairnError.is(error, 'PACKAGE_MISSING')).toBe(true);
      expect(error).toMatchObject({
        message: 'the sqlite store needs @cairn/store-sqlite, which is not installed',
        details: { packageName: '@cairn/store-sqlite', fix: 'run: npm install @cairn/store-sqlite' },
        cause,
      });
    },
  );

  it('lets a module missing inside the package surface as itself', async () => {
    const deeper = [
      // Its own dependency, from a path that contains the package's name.
      notFound(
        'ERR_MODULE_NOT_FOUND',
        "Cannot find package 'better-sqlite3' imported from /app/node_modules/@cairn/store-sqlite/dist/index.js",
      ),
      // A file of its own build.
      notFound(
        'ERR_MODULE_NOT_FOUND',
        "Cannot find module '/app/node_modules/@cairn/store-sqlite/dist/open.js' imported from /app/node_modules/@cairn/store-sqlite/dist/index.js",
      ),
      // Another package whose name starts the same.
      notFound(
        'ERR_MODULE_NOT_FOUND',
        "Cannot find package '@cairn/store-sqlite-extra' imported from /app/x.js",
      ),
    ];
    for (const error of deeper) {
      await expect(
        importOptionalPackage('@cairn/store-sqlite', 'the sqlite store', failing(error)),
      ).rejects.toBe(error);
    }
  });

  it('rethrows any other failure to load as it is', async () => {
    const thrown = [
      new SyntaxError("Unexpected token '<'"),
      'not an error',
      notFound('ERR_REQUIRE_ESM', 'x'),
    ];
    for (const error of thrown) {
      await expect(
        importOptionalPackage('@cairn/store-sqlite', 'the sqlite store', failing(error)),
      ).rejects.toBe(error);
    }
  });

  it('recognises the error of a real import of a package that is not installed', async () => {
    const specifier = '@cairn/no-such-package-installed';
    const error = await importOptionalPackage(specifier, 'the test', () => import(specifier)).catch(
      (error: unknown) => error,
    );
    expect(CairnError.is(error, 'PACKAGE_MISSING')).toBe(true);
  });
});
