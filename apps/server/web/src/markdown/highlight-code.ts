import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { type ComponentChildren, h } from 'preact';

// Registered one by one (not highlight.js's full build, ~190 languages) to keep the page small.
// Each brings its aliases: js, ts, sh, py, html, yml, md, rs, golang, c++ …
const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

// highlight.js's output is escaped text in `<span class="…">` elements and nothing else.
const PIECE = /<span class="([\w -]+)">|<\/span>|([^<]+)/y;
const ESCAPED = /&(amp|lt|gt|quot|#x27);/g;
const UNESCAPED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'" };

/**
 * highlight.js's HTML as Preact elements, so that nothing is ever set as HTML; undefined if it
 * holds anything but the spans and escaped text it produces (its `escapeHTML`).
 */
function spansToElements(html: string): ComponentChildren[] | undefined {
  const root: ComponentChildren[] = [];
  const open: { className: string; children: ComponentChildren[] }[] = [];
  PIECE.lastIndex = 0;
  while (PIECE.lastIndex < html.length) {
    const match = PIECE.exec(html);
    if (match === null) return undefined;
    const [, className, text] = match;
    if (className !== undefined) {
      open.push({ className, children: [] });
    } else if (text !== undefined) {
      (open.at(-1)?.children ?? root).push(text.replace(ESCAPED, (_, name: string) => UNESCAPED[name] ?? _));
    } else {
      // `</span>`
      const closed = open.pop();
      if (closed === undefined) return undefined;
      (open.at(-1)?.children ?? root).push(h('span', { class: closed.className }, closed.children));
    }
  }
  return open.length === 0 ? root : undefined;
}

/** The language a fence's info string names, if highlight.js knows it. */
export function knownLanguage(info: string | undefined): string | undefined {
  const name = info?.trim().split(/\s/)[0]?.toLowerCase();
  return name !== undefined && name !== '' && hljs.getLanguage(name) !== undefined ? name : undefined;
}

/** `code` coloured as `language`; plain text for an unknown language. */
export function highlightCode(code: string, language: string | undefined): ComponentChildren {
  const known = knownLanguage(language);
  if (known === undefined) return code;
  const { value } = hljs.highlight(code, { language: known, ignoreIllegals: true });
  return spansToElements(value) ?? code;
}
