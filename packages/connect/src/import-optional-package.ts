import { CairnError } from '@cairn/core';

/**
 * Loads an optional peer dependency (a provider, a store backend) through `load`, which imports it
 * with a literal specifier so bundlers and types still see it. When *that* package is not installed
 * the failure is `PACKAGE_MISSING`, naming the package and the install command; anything else,
 * including a module missing deeper inside the package, is rethrown as it is.
 *
 * `what` says what needs the package, e.g. `the sqlite store`.
 */
export async function importOptionalPackage<T>(
  packageName: string,
  what: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isPackageNotFound(error, packageName)) throw error;
    throw new CairnError('PACKAGE_MISSING', `${what} needs ${packageName}, which is not installed`, {
      details: { packageName, fix: `run: npm install ${packageName}` },
      cause: error,
    });
  }
}

const NOT_FOUND_CODES: ReadonlySet<unknown> = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/**
 * Whether `error` says the package itself cannot be found: Node's ESM loader reports
 * `Cannot find package '<name>' imported from …`, CommonJS `Cannot find module '<name>'`. A module
 * missing inside it names another specifier or a path (which may contain the name: hence the quotes).
 */
function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error) || !NOT_FOUND_CODES.has((error as { code?: unknown }).code)) return false;
  return (
    error.message.includes(`Cannot find package '${packageName}'`) ||
    error.message.includes(`Cannot find module '${packageName}'`)
  );
}
