import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temp directory removed by `remove()` or, if the bench dies first (an error, Ctrl-C: run.mjs
 * turns SIGINT and SIGTERM into an exit), when the process exits.
 */
export function makeTempDir(prefix) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const removeNow = () => rmSync(path, { recursive: true, force: true });
  process.once('exit', removeNow);
  return {
    path,
    remove() {
      process.off('exit', removeNow);
      removeNow();
    },
  };
}
