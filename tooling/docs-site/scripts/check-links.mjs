// `pnpm docs:check`: every internal link of the built docs site resolves, to a file and, when it has
// a #fragment, to an element with that id (or an <a name>) in it. External links are listed, never
// fetched: the check runs offline and its verdict cannot depend on someone else's server.
//
// Usage: node scripts/check-links.mjs [site-dir]   (default: the repository's docs-site/)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkSiteLinks } from './site-links.mjs';

const siteDir = resolve(
  process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../../../docs-site'),
);
if (!existsSync(siteDir)) {
  console.error(`no site at ${siteDir}: run \`pnpm docs:build\` first`);
  process.exit(1);
}

function htmlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return path.endsWith('.html') ? [path] : [];
  });
}

const pages = new Map(
  htmlFiles(siteDir).map((path) => [
    relative(siteDir, path).split('\\').join('/'),
    readFileSync(path, 'utf8'),
  ]),
);
const { broken, external } = checkSiteLinks(pages, (path) => existsSync(join(siteDir, path)));

if (external.length > 0) {
  console.log(`external links (listed, not fetched): ${external.length}`);
  for (const url of external) console.log(`  ${url}`);
}
for (const { page, href, reason } of broken) console.error(`BROKEN ${page}: ${href} (${reason})`);
console.log(`${pages.size} pages, ${broken.length} broken internal link(s)`);
process.exitCode = broken.length > 0 ? 1 : 0;
