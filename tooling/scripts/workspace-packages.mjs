// The workspace's public packages and the @cairn packages each needs installed: shared by
// check-packages.mjs and the getting-started guide's test (tooling/docs-tests).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The public packages in `<root>/packages`: `{ dirName, dir, manifest }` each. */
export function readPublicPackages(root) {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'packages', entry.name, 'package.json')))
    .map((entry) => {
      const dir = join(root, 'packages', entry.name);
      return {
        dirName: entry.name,
        dir,
        manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
      };
    })
    .filter((pkg) => pkg.manifest.private !== true);
}

/** The @cairn packages a manifest names as optional peers: the user installs those it wants. */
export function optionalCairnPeers(manifest) {
  return Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => name.startsWith('@cairn/') && manifest.peerDependenciesMeta?.[name]?.optional === true,
  );
}

/**
 * @cairn packages a workspace manifest needs installed: dependencies and peerDependencies (optional
 * peers too, unless `withOptionalPeers` is false).
 */
export function cairnDependencies(manifest, withOptionalPeers = true) {
  const skipped = new Set(withOptionalPeers ? [] : optionalCairnPeers(manifest));
  return Object.keys({
    ...manifest.dependencies,
    ...manifest.peerDependencies,
    ...manifest.optionalDependencies,
  }).filter((name) => name.startsWith('@cairn/') && !skipped.has(name));
}

/**
 * `names` and every @cairn package they depend on, transitively, among `byName` (package name →
 * `{ manifest }`); unknown (private, missing) names in `missing`. Without `withOptionalPeers`, as a
 * user who installs only the package gets it.
 */
export function cairnClosure(byName, names, { withOptionalPeers = true } = {}) {
  const seen = new Set();
  const missing = new Set();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.shift();
    if (seen.has(name) || missing.has(name)) continue;
    const pkg = byName.get(name);
    if (!pkg) {
      missing.add(name);
      continue;
    }
    seen.add(name);
    queue.push(...cairnDependencies(pkg.manifest, withOptionalPeers));
  }
  return { names: [...seen], missing: [...missing] };
}
