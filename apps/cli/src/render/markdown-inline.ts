import type { Colors } from './colors.js';

export interface InlineOptions {
  colors: Colors;
  /** Whether the text is all there is (the line ended): nothing is held back for what may follow. */
  complete: boolean;
  /** The character before the text on its line ('' at the start): `snake_case` has no emphasis. */
  before?: string;
  /** Written after each styled span: the line's own style (a heading's bold), which the span closed. */
  resume?: string;
}

export interface InlineProgress {
  /** The terminal text for `text.slice(0, consumed)`. */
  output: string;
  /**
   * How much of the text is rendered; the rest (a `**` or `[` whose end has not arrived yet) is
   * rendered once more of the line is there. All of it when `complete`.
   */
  consumed: number;
}

// What a span start turned out to be: rendered `output` for `length` characters, or wait for more.
type Step = { length: number; output: string; styled?: boolean } | 'wait';

const SPECIAL = /[\\`*_~[!]/g;
const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * Inline Markdown on one line: `code`, **bold**, *italic*, ~~strike~~, links (text and a dim URL),
 * backslash escapes. Left to right, a span is decided only from the text up to where it ends, so
 * rendering a line in pieces gives the same output as rendering it at once. What is not a complete
 * span stays as typed. Emphasis never starts or ends inside a word (`2*3*4`, `snake_case`).
 */
export function renderInline(text: string, options: InlineOptions): InlineProgress {
  let output = '';
  let index = 0;
  while (index < text.length) {
    SPECIAL.lastIndex = index;
    const next = SPECIAL.exec(text)?.index ?? text.length;
    output += text.slice(index, next);
    index = next;
    if (index === text.length) break;
    const step = spanAt(text, index, options);
    if (step === 'wait') break;
    output += step.output + (step.styled ? (options.resume ?? '') : '');
    index += step.length;
  }
  return { output, consumed: index };
}

function spanAt(text: string, at: number, options: InlineOptions): Step {
  switch (text[at]) {
    case '\\':
      return escaped(text, at, options);
    case '`':
      return codeSpan(text, at, options);
    case '[':
      return link(text, at, 0, options);
    case '!':
      if (at + 1 === text.length) return options.complete ? literal('!') : 'wait';
      return text[at + 1] === '[' ? link(text, at + 1, 1, options) : literal('!');
    default:
      return emphasis(text, at, options);
  }
}

// Shown as typed.
const literal = (text: string): Step => ({ length: text.length, output: text });

function escaped(text: string, at: number, { complete }: InlineOptions): Step {
  const next = text[at + 1];
  if (next === undefined) return complete ? literal('\\') : 'wait';
  return PUNCTUATION.test(next) ? { length: 2, output: next } : literal('\\');
}

// The run of `character` starting at `at`, or undefined when it may go on past what has arrived.
function runAt(text: string, at: number, complete: boolean): number | undefined {
  const character = text[at];
  let end = at;
  while (text[end] === character) end++;
  return end === text.length && !complete ? undefined : end - at;
}

function codeSpan(text: string, at: number, options: InlineOptions): Step {
  const { complete, colors } = options;
  const ticks = runAt(text, at, complete);
  if (ticks === undefined) return 'wait';
  for (let close = text.indexOf('`', at + ticks); close !== -1; ) {
    const run = runAt(text, close, complete);
    if (run === undefined) return 'wait';
    if (run === ticks) {
      const length = close + run - at;
      // Without colour the backticks are what still marks code.
      if (!colors.isColorSupported) return literal(text.slice(at, at + length));
      return { length, output: colors.cyan(trimOneSpace(text.slice(at + ticks, close))), styled: true };
    }
    close = text.indexOf('`', close + run);
  }
  return complete ? literal(text.slice(at, at + ticks)) : 'wait';
}

// CommonMark: `` ` a ` `` is "a": one space on each side is padding.
function trimOneSpace(code: string): string {
  return code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
}

// `[label](url)` at `at`, the `prefix` characters before it (an image's `!`) dropped.
function link(text: string, at: number, prefix: number, options: InlineOptions): Step {
  const { complete, colors } = options;
  const notLink = literal(text.slice(at - prefix, at + 1));
  const labelEnd = closing(text, at + 1, '[', ']');
  if (labelEnd === undefined) return complete ? notLink : 'wait';
  if (labelEnd + 1 === text.length) return complete ? notLink : 'wait';
  if (text[labelEnd + 1] !== '(') return notLink;
  const urlEnd = closing(text, labelEnd + 2, '(', ')');
  if (urlEnd === undefined) return complete ? notLink : 'wait';
  const url = text.slice(labelEnd + 2, urlEnd).trim();
  const labelText = text.slice(at + 1, labelEnd);
  const label = renderInline(labelText, { colors, complete: true, before: '[' }).output;
  const length = urlEnd + 1 - (at - prefix);
  if (labelText === '') return { length, output: colors.underline(url), styled: true };
  return { length, output: `${colors.underline(label)} ${colors.dim(`(${url})`)}`, styled: true };
}

// The index of the `close` that balances the `open` before `from`, if it has arrived.
function closing(text: string, from: number, open: string, close: string): number | undefined {
  let depth = 0;
  for (let index = from; index < text.length; index++) {
    const character = text[index];
    if (character === '\\') index++;
    else if (character === open) depth++;
    else if (character === close) {
      if (depth === 0) return index;
      depth--;
    }
  }
  return undefined;
}

// `*`, `_` and `~` runs: *italic*, **bold**, ***both***, ~~strike~~; anything else is literal.
function emphasis(text: string, at: number, options: InlineOptions): Step {
  const { complete, colors } = options;
  const marker = text[at] as string;
  const run = runAt(text, at, complete);
  if (run === undefined) return 'wait';
  const asTyped = literal(text.slice(at, at + run));
  const before = at === 0 ? (options.before ?? '') : (text[at - 1] as string);
  const after = text[at + run];
  const usable = marker === '~' ? run === 2 : run <= 3;
  if (!usable || WORD_CHARACTER.test(before) || after === undefined || SPACE.test(after)) return asTyped;
  // The first run of exactly this length after a non-blank, not followed by a letter, closes it.
  for (let close = text.indexOf(marker, at + run); close !== -1; ) {
    const closeRun = runAt(text, close, complete);
    if (closeRun === undefined) return 'wait';
    const closeAfter = text[close + closeRun];
    if (
      closeRun === run &&
      !SPACE.test(text[close - 1] as string) &&
      (closeAfter === undefined || !WORD_CHARACTER.test(closeAfter))
    ) {
      const inner = renderInline(text.slice(at + run, close), { colors, complete: true, before: marker });
      return { length: close + run - at, output: paint(marker, run, colors)(inner.output), styled: true };
    }
    close = text.indexOf(marker, close + closeRun);
  }
  return complete ? asTyped : 'wait';
}

function paint(marker: string, run: number, colors: Colors): (text: string) => string {
  if (marker === '~') return colors.strikethrough;
  if (run === 1) return colors.italic;
  if (run === 2) return colors.bold;
  return (text) => colors.bold(colors.italic(text));
}
