// docs/architecture.md is the map of the project: it must name every workspace package and
// describe the server, so a new package or app cannot land without the map knowing of it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoDir = fileURLToPath(new URL('../../', import.meta.url));

/** `packages/*`, `apps/*`, `tooling/*`: the folders pnpm-workspace.yaml lists. */
async function workspaceFolders(): Promise<string[]> {
  const workspace = await readFile(join(repoDir, 'pnpm-workspace.yaml'), 'utf8');
  return [...workspace.matchAll(/^\s*-\s*['"]?([\w-]+)\/\*['"]?\s*$/gm)].map((match) => match[1] as string);
}

/** The name of every workspace package, read from its package.json. */
async function workspacePackageNames(): Promise<string[]> {
  const names: string[] = [];
  for (const folder of await workspaceFolders()) {
    for (const entry of await readdir(join(repoDir, folder), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const manifest = await readFile(join(repoDir, folder, entry.name, 'package.json'), 'utf8').catch(
        () => undefined,
      );
      if (manifest !== undefined) names.push((JSON.parse(manifest) as { name: string }).name);
    }
  }
  return names.sort();
}

const architecture = () => readFile(join(repoDir, 'docs/architecture.md'), 'utf8');

describe('docs/architecture.md matches the repository', () => {
  it('reads the workspace packages from pnpm-workspace.yaml', async () => {
    const names = await workspacePackageNames();
    expect(names).toContain('@cairn/core');
    expect(names).toContain('@cairn/server');
    expect(names).toContain('@cairn/docs-tests');
  });

  it('names every workspace package', async () => {
    const doc = await architecture();
    const missing = (await workspacePackageNames()).filter((name) => !doc.includes(name));
    expect(missing, 'packages docs/architecture.md does not name').toEqual([]);
  });

  it('has a section on the server', async () => {
    const headings = (await architecture()).split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toContain('## Server');
  });

  it('describes the project as it stands: no line calls anything "planned"', async () => {
    const lines = (await architecture()).split('\n').filter((line) => /\bplanned\b/i.test(line));
    expect(lines).toEqual([]);
  });
});
