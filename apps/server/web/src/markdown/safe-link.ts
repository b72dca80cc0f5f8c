import { decodeEntities } from './html-entities.js';

// Everything else (javascript:, data:, vbscript:, file:, relative paths) is shown as plain text.
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The address a Markdown link may point to, or undefined when it must not be a link. The URL
 * parser decides the scheme as the browser would: it drops the leading spaces and control
 * characters, the tabs and newlines within, and lower-cases the scheme, so `JaVaScRiPt:`,
 * ` javascript:` or `java\tscript:` are all `javascript:`. Entities are decoded first, as
 * CommonMark says, so `&#106;avascript:` is caught too.
 */
export function safeHref(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(decodeEntities(href));
  } catch {
    return undefined;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}
