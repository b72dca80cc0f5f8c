/** What a line of Markdown is. `indent` is its leading blanks in columns (a tab counts four). */
export type MarkdownLine =
  | { kind: 'blank' }
  | { kind: 'fence'; indent: number; marker: string; info: string }
  | { kind: 'table'; indent: number }
  | { kind: 'rule' }
  | { kind: 'heading'; level: number; contentStart: number }
  | { kind: 'bullet'; indent: number; contentStart: number }
  | { kind: 'ordered'; indent: number; number: string; contentStart: number }
  | { kind: 'quote'; depth: number; contentStart: number }
  | { kind: 'text'; indent: number; contentStart: number };

/** Where the text of a line starts, for the kinds that have inline text. */
export type InlineLine = Extract<MarkdownLine, { contentStart: number }>;

const TAB_WIDTH = 4;

/**
 * What `line` (without its line break) is. While it is incomplete (`complete` false), undefined
 * as long as what may still arrive could change the answer: `-` may become a bullet or a rule,
 * `1` a numbered item, `|` a table row. So a line classified early is classified as it would be
 * whole. Fences and table rows are only decided on the whole line.
 */
export function classifyLine(line: string, complete: boolean): MarkdownLine | undefined {
  const start = line.search(/\S/);
  if (start === -1) return complete ? { kind: 'blank' } : undefined;
  const indent = columns(line.slice(0, start));
  const rest = line.slice(start);
  const text: MarkdownLine = { kind: 'text', indent, contentStart: start };
  const first = rest[0];

  if (first === '`' || first === '~') {
    const fence = /^(`{3,}|~{3,})(.*)$/.exec(rest);
    // "`" and "``" may still grow into a fence; a code span or ~~strike~~ is text.
    if (fence === null) return !complete && /^(`+|~+)$/.test(rest) ? undefined : text;
    if (!complete) return undefined;
    const [, marker = '', info = ''] = fence;
    // A backtick fence's info string has no backticks: "```a``` b" is a code span.
    return first === '`' && info.includes('`') ? text : { kind: 'fence', indent, marker, info: info.trim() };
  }
  if (first === '|') return complete ? { kind: 'table', indent } : undefined;
  if (first === '#') {
    const hashes = /^#+/.exec(rest)?.[0].length ?? 0;
    if (hashes === rest.length) {
      if (!complete) return hashes > 6 ? text : undefined;
      return hashes > 6 ? text : { kind: 'heading', level: hashes, contentStart: line.length };
    }
    return hashes <= 6 && /\s/.test(rest[hashes] as string)
      ? { kind: 'heading', level: hashes, contentStart: start + hashes + 1 }
      : text;
  }
  if (first === '-' || first === '*' || first === '_' || first === '+') {
    // Markers and blanks only so far: a rule (`---`, `* * *`), or a bullet once text follows.
    const rule = new RegExp(`^(\\${first}[ \\t]*)+$`).exec(rest);
    if (rule !== null && first !== '+') {
      if (!complete) return undefined;
      if ((rest.match(new RegExp(`\\${first}`, 'g')) ?? []).length >= 3) return { kind: 'rule' };
    }
    if (first !== '_' && /^.[ \t]/.test(rest)) {
      return { kind: 'bullet', indent, contentStart: start + 2 };
    }
    return complete || rest.length > 1 ? text : undefined;
  }
  if (first === '>') {
    const quote = /^(?:>[ \t]?)+/.exec(rest)?.[0] ?? '';
    // "> " or ">" then text: wait to see whether a blank follows the last marker.
    if (!complete && quote.length === rest.length) return undefined;
    return { kind: 'quote', depth: quote.replace(/[ \t]/g, '').length, contentStart: start + quote.length };
  }
  if (/\d/.test(first as string)) {
    const ordered = /^(\d{1,9})([.)])([ \t]|$)/.exec(rest);
    if (ordered !== null && ordered[3] !== '') {
      return {
        kind: 'ordered',
        indent,
        number: `${ordered[1]}${ordered[2]}`,
        contentStart: start + ordered[0].length,
      };
    }
    if (!complete && /^\d{1,9}[.)]?$/.test(rest)) return undefined;
  }
  return text;
}

function columns(blanks: string): number {
  let width = 0;
  for (const blank of blanks) width = blank === '\t' ? width + TAB_WIDTH - (width % TAB_WIDTH) : width + 1;
  return width;
}
