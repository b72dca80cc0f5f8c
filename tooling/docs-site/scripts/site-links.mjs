// The link rules of the docs site, apart from the file system so tests can give pages directly.
import { posix } from 'node:path';

const LINK = /<(?:a|link|script|img|source)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const ANCHOR = /\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function decodeEntities(text) {
  return text
    .replaceAll('&amp;', '&')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');
}

/** Every `id` and `name` attribute value of a page. */
export function anchorsOf(html) {
  return new Set([...html.matchAll(ANCHOR)].map((match) => decodeEntities(match[1] ?? match[2] ?? '')));
}

/** Every link target (`href`/`src`) of a page, entities decoded, in document order. */
export function linksOf(html) {
  return [...html.matchAll(LINK)].map((match) => decodeEntities(match[1] ?? match[2] ?? ''));
}

/**
 * Checks the links of a site given as `pages` (site-relative path → HTML). `fileExists` answers for
 * targets that are not pages (images, scripts, copied media). Returns the broken internal links and
 * the distinct external URLs (http:, https:, mailto: …), sorted.
 */
export function checkSiteLinks(pages, fileExists) {
  const anchors = new Map();
  const anchorsFor = (page) => {
    if (!anchors.has(page)) anchors.set(page, anchorsOf(pages.get(page)));
    return anchors.get(page);
  };
  const broken = [];
  const external = new Set();
  for (const [page, html] of pages) {
    for (const href of linksOf(html)) {
      if (SCHEME.test(href)) {
        if (!/^(?:javascript|data):/i.test(href)) external.add(href);
        continue;
      }
      if (href.startsWith('//')) {
        external.add(href);
        continue;
      }
      const hashAt = href.indexOf('#');
      const pathPart = (hashAt === -1 ? href : href.slice(0, hashAt)).split('?')[0];
      const fragment = hashAt === -1 ? undefined : decodeURIComponent(href.slice(hashAt + 1));
      let target = page;
      if (pathPart !== '') {
        if (pathPart.startsWith('/')) {
          broken.push({ page, href, reason: 'root-relative: breaks when the site is not served at /' });
          continue;
        }
        target = posix.normalize(posix.join(posix.dirname(page), decodeURIComponent(pathPart)));
        if (target.startsWith('../')) {
          broken.push({ page, href, reason: 'points outside the site' });
          continue;
        }
        if (target.endsWith('/')) target += 'index.html';
        // TypeDoc copies a linked Markdown file it does not render as-is: the reader gets raw text.
        if (target.endsWith('.md')) {
          broken.push({ page, href, reason: 'a Markdown file the site does not render' });
          continue;
        }
        if (!pages.has(target)) {
          if (!fileExists(target)) broken.push({ page, href, reason: 'no such file' });
          continue;
        }
      }
      if (fragment !== undefined && fragment !== '' && !anchorsFor(target).has(fragment)) {
        broken.push({ page, href, reason: `no #${fragment} in ${target}` });
      }
    }
  }
  return { broken, external: [...external].sort() };
}
