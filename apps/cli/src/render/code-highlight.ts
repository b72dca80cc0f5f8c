import { createRequire } from 'node:module';
import type { HLJSApi } from 'highlight.js';
import type { Colors } from './colors.js';

type Paint = (text: string) => string;

// Loaded on the first code block that asks for colour, synchronously (its CommonJS build): the
// renderer stays synchronous, and `cairn --version` never pays for the grammars.
let loaded: HLJSApi | undefined;
function highlighter(): HLJSApi {
  loaded ??= createRequire(import.meta.url)('highlight.js/lib/common') as HLJSApi;
  return loaded;
}

/** Whether highlight.js knows `language` (a name or an alias such as `ts`, `sh`, `py`). */
export function isKnownLanguage(language: string): boolean {
  return highlighter().getLanguage(language) !== undefined;
}

export interface HighlightedCode {
  /** One string per line, each styled on its own (a comment over two lines is painted on both). */
  lines: string[];
  /** Whether something goes on past the last line (a comment or string not closed yet). */
  open: boolean;
}

/** `code` highlighted as `language`. */
export function highlightCode(code: string, language: string, colors: Colors): HighlightedCode {
  const result = highlighter().highlight(code, { language, ignoreIllegals: true });
  // highlight.js closes every span at the end of its HTML; the mode it stopped in says what is open:
  // the language itself has no parent.
  const top = result._top as { parent?: unknown } | undefined;
  return { lines: htmlToLines(result.value, paletteOf(colors)), open: top?.parent !== undefined };
}

// highlight.js scope (its first class name, without `hljs-`) → how it is painted.
function paletteOf(colors: Colors): Record<string, Paint> {
  return {
    keyword: colors.magenta,
    'selector-tag': colors.magenta,
    built_in: colors.yellow,
    type: colors.yellow,
    literal: colors.yellow,
    number: colors.yellow,
    symbol: colors.yellow,
    bullet: colors.yellow,
    string: colors.green,
    regexp: colors.green,
    addition: colors.green,
    deletion: colors.red,
    comment: colors.gray,
    quote: colors.gray,
    meta: colors.gray,
    title: colors.cyan,
    section: colors.cyan,
    name: colors.cyan,
    'selector-id': colors.cyan,
    'selector-class': colors.cyan,
    attr: colors.blue,
    attribute: colors.blue,
    property: colors.blue,
    'template-variable': colors.blue,
    emphasis: colors.italic,
    strong: colors.bold,
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? '');

/** highlight.js's HTML (text and nested `<span class="hljs-…">`) as painted lines. */
function htmlToLines(html: string, palette: Record<string, Paint>): string[] {
  const lines: string[] = [''];
  // The paint of each open span; an unknown scope paints as its parent does.
  const open: (Paint | undefined)[] = [];
  for (const [, tag, scope, text] of html.matchAll(/(<span class="hljs-([\w-]+)[^"]*">|<\/span>)|([^<]+)/g)) {
    if (tag === '</span>') open.pop();
    else if (tag !== undefined) open.push((scope === undefined ? undefined : palette[scope]) ?? open.at(-1));
    else if (text !== undefined) {
      const paint = open.at(-1);
      decode(text)
        .split('\n')
        .forEach((piece, index) => {
          if (index > 0) lines.push('');
          if (piece !== '') lines[lines.length - 1] += paint === undefined ? piece : paint(piece);
        });
    }
  }
  return lines;
}
