import { highlightCode, isKnownLanguage } from './code-highlight.js';
import type { Colors } from './colors.js';
import { renderInline } from './markdown-inline.js';
import { classifyLine, type InlineLine, type MarkdownLine } from './markdown-line.js';
import { renderTable } from './markdown-table.js';

// How many lines of an open comment or string are highlighted together before it is let go.
const MAX_PENDING_LINES = 200;

export interface MarkdownStreamOptions {
  colors: Colors;
  /** The terminal's width: rules span it (at most 80 columns), wider tables are not padded. */
  width?: number | undefined;
}

/** Markdown arriving in pieces, rendered for the terminal as soon as each piece can be. */
export interface MarkdownStream {
  /** Terminal text for what `delta` completes ('' while it only extends something undecided). */
  push(delta: string): string;
  /** The end of the text: the rest, ending its line (a line without a break, an open code block, a table). */
  end(): string;
}

interface OpenFence {
  marker: string;
  /** Blanks before the fence, taken off each code line. */
  indent: number;
  margin: string;
  /** highlight.js's name for the language, when there is colour and it knows it. */
  language?: string;
  /**
   * The lines since the last one highlight.js ended outside any span: a line is highlighted with
   * them, so a comment over several lines is one, without highlighting the whole block each line.
   */
  pending: string[];
}

interface ListItem {
  indent: number;
  /** Where the item's text starts on the screen: its nested items and paragraphs go there. */
  column: number;
}

const BULLETS = ['•', '◦', '▪'];
const LIST_MARGIN = 2;
const CODE_MARGIN = '  ';
const MAX_RULE_WIDTH = 80;

/**
 * Markdown for the terminal, line by line as it streams: headings bold (no `#`), `•` bullets and
 * numbered items indented by their depth, block quotes behind a `│`, fenced code highlighted and
 * indented (its language above it), tables lined up, `---` as a rule, and inline `code`, emphasis
 * and links. A line is shown as soon as its start says what it is, then its text as it arrives; only
 * code lines, table rows and what is still undecided (`**` before its end) wait for their line.
 * What is written never changes afterwards, so text in any pieces renders exactly as in one. With
 * colour off the structure stays (bullets, indentation, headings' `#`, `code` in backticks), with
 * no escape codes.
 */
export function createMarkdownStream(options: MarkdownStreamOptions): MarkdownStream {
  const { colors } = options;
  // A heading's style, opened at its start and closed at its end: its text arrives in pieces.
  const [boldOpen = '', boldClose = ''] = colors.bold('\0').split('\0');
  const [titleOpen = '', titleClose = ''] = colors.bold(colors.underline('\0')).split('\0');
  const styleOf = (start: InlineLine) => {
    if (start.kind !== 'heading') return { open: '', close: '' };
    return start.level === 1 ? { open: titleOpen, close: titleClose } : { open: boldOpen, close: boldClose };
  };
  let line = '';
  // What the line in progress is, once its start says so, and how much of its text is written.
  let shape: MarkdownLine | undefined;
  let shown = 0;
  let fence: OpenFence | undefined;
  let table: string[] = [];
  let lists: ListItem[] = [];

  // The margin of an indented line: under list items their text's column, elsewhere its own.
  const marginFor = (indent: number) => {
    const owner = indent === 0 ? undefined : lists.findLast((item) => item.indent < indent);
    return ' '.repeat(owner?.column ?? indent);
  };

  const flushTable = () => {
    if (table.length === 0) return '';
    const rendered = renderTable(table, { colors, width: options.width, margin: '' });
    table = [];
    return rendered;
  };

  // The start of a line that has text: its prefix (bullet, quote bar, margin) and style.
  const begin = (start: InlineLine): string => {
    switch (start.kind) {
      case 'heading':
        lists = [];
        // Without colour nothing else would tell a heading from a line of text.
        return colors.isColorSupported ? styleOf(start).open : `${'#'.repeat(start.level)} `;
      case 'quote':
        lists = [];
        return colors.dim('│ '.repeat(start.depth));
      case 'bullet':
      case 'ordered': {
        lists = lists.filter((item) => item.indent < start.indent);
        const margin = lists.at(-1)?.column ?? LIST_MARGIN;
        const marker =
          start.kind === 'bullet'
            ? (BULLETS[Math.min(lists.length, BULLETS.length - 1)] as string)
            : start.number;
        lists.push({ indent: start.indent, column: margin + marker.length + 1 });
        return `${' '.repeat(margin)}${colors.dim(marker)} `;
      }
      case 'text':
        if (start.indent === 0) lists = [];
        return marginFor(start.indent);
    }
  };

  // The line's text that can be written now (all of it once the line is complete).
  const inline = (start: InlineLine, complete: boolean) => {
    const from = start.contentStart + shown;
    const progress = renderInline(line.slice(from), {
      colors,
      complete,
      before: line[from - 1] ?? '',
      resume: styleOf(start).open,
    });
    shown += progress.consumed;
    return progress.output;
  };

  const openFence = (start: Extract<MarkdownLine, { kind: 'fence' }>) => {
    if (start.indent === 0) lists = [];
    const margin = marginFor(start.indent) + CODE_MARGIN;
    const name = start.info.split(/\s/)[0] ?? '';
    // Only with colour: without it highlight.js is never loaded.
    const language = colors.isColorSupported && name !== '' && isKnownLanguage(name) ? name : undefined;
    fence = {
      marker: start.marker,
      indent: start.indent,
      margin,
      pending: [],
      ...(language ? { language } : {}),
    };
    return start.info === '' ? '' : `${margin}${colors.dim(start.info)}\n`;
  };

  const codeLine = (open: OpenFence, text: string) => {
    const trimmed = text.trim();
    if (
      trimmed.length >= open.marker.length &&
      trimmed === (open.marker[0] as string).repeat(trimmed.length)
    ) {
      fence = undefined;
      return '';
    }
    const code = text.replace(new RegExp(`^[ \\t]{0,${open.indent}}`), '');
    if (open.language === undefined) return code === '' ? '\n' : `${open.margin}${code}\n`;
    open.pending.push(code);
    const highlighted = highlightCode(open.pending.join('\n'), open.language, colors);
    // Lines are re-highlighted together only while a comment or string stays open, and not without
    // end: an unclosed one in a long block would make each line cost the whole block again.
    if (!highlighted.open || open.pending.length >= MAX_PENDING_LINES) open.pending = [];
    return code === '' ? '\n' : `${open.margin}${highlighted.lines.at(-1) ?? ''}\n`;
  };

  // What the line in progress shows so far; `complete` when its line break (or the end) is there.
  const advance = (complete: boolean): string => {
    if (fence !== undefined) return complete ? codeLine(fence, line) : '';
    let output = '';
    if (shape === undefined) {
      shape = classifyLine(line, complete);
      if (shape === undefined) return '';
      if (shape.kind !== 'table') output += flushTable();
      if ('contentStart' in shape) output += begin(shape);
    }
    if ('contentStart' in shape) {
      output += inline(shape, complete);
      if (complete) output += `${styleOf(shape).close}\n`;
      return output;
    }
    if (!complete) return output;
    switch (shape.kind) {
      case 'blank':
        return `${output}\n`;
      case 'rule':
        lists = [];
        return `${output}${colors.dim('─'.repeat(Math.min(options.width ?? MAX_RULE_WIDTH, MAX_RULE_WIDTH)))}\n`;
      case 'table':
        table.push(line);
        return output;
      case 'fence':
        return output + openFence(shape);
    }
  };

  const nextLine = () => {
    line = '';
    shape = undefined;
    shown = 0;
  };

  return {
    push(delta) {
      let output = '';
      // Carriage returns would draw over the line (Windows line ends are plain ones here).
      const pieces = delta.replace(/\r/g, '').split('\n');
      pieces.forEach((piece, index) => {
        line += piece;
        const complete = index < pieces.length - 1;
        output += advance(complete);
        if (complete) nextLine();
      });
      return output;
    },
    end() {
      let output = line === '' && shape === undefined ? '' : advance(true);
      nextLine();
      fence = undefined;
      output += flushTable();
      lists = [];
      return output;
    },
  };
}

/** A whole Markdown text for the terminal, as the stream renders it: the same output. */
export function renderMarkdown(text: string, options: MarkdownStreamOptions): string {
  const stream = createMarkdownStream(options);
  return stream.push(text) + stream.end();
}
