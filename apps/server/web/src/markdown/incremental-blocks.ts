import { Lexer, type Token } from 'marked';

/** The top-level blocks of `text`: CommonMark with GitHub's extensions (tables, strikethrough, task lists, autolinks). */
export function lexBlocks(text: string): Token[] {
  return new Lexer({ gfm: true }).lex(text);
}

// marked lexes `\r\n` and `\r` as `\n`; offsets into the text are counted after that.
const normalize = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * Lexes a text that grows (a streamed reply) without lexing all of it again for each delta: the
 * blocks that appended text cannot change are kept (the same objects, so their views need not
 * render again) and only the text after them is lexed again. A text that does not extend the
 * previous one is lexed whole.
 *
 * Which blocks appended text can change: the last one, of course; the blocks right before it with
 * no blank line between (a table or setext underline that turns out not to be one gives its lines
 * back to the paragraph above); and a list before a blank line (`1. a` + blank + `2.` is one list).
 *
 * Reference definitions (`[id]: https://…`) are the exception: one anywhere turns `[text][id]` in
 * any block into a link, even in blocks before it. A text with a definition is always lexed whole.
 */
export class IncrementalBlocks {
  private text = '';
  private blocks: Token[] = [];
  private hasDefinitions = false;

  push(fullText: string): readonly Token[] {
    const text = normalize(fullText);
    if (text === this.text) return this.blocks;
    if (this.hasDefinitions || !text.startsWith(this.text)) return this.lexWhole(text);
    const kept = this.blocks.slice(0, firstChangeable(this.blocks));
    const start = kept.reduce((length, block) => length + block.raw.length, 0);
    const tail = new Lexer({ gfm: true }).lex(text.slice(start));
    if (Object.keys(tail.links).length > 0) return this.lexWhole(text);
    this.text = text;
    this.blocks = [...kept, ...tail];
    return this.blocks;
  }

  private lexWhole(text: string): readonly Token[] {
    const blocks = new Lexer({ gfm: true }).lex(text);
    this.text = text;
    this.blocks = [...blocks];
    this.hasDefinitions = Object.keys(blocks.links).length > 0;
    return this.blocks;
  }
}

/** The index of the first block that text appended after `blocks` may change (see above). */
function firstChangeable(blocks: readonly Token[]): number {
  const isSpace = (index: number) => blocks[index]?.type === 'space';
  // The last block with content (blank lines after it are lexed again anyway).
  let start = blocks.length;
  while (start > 0 && isSpace(start - 1)) start--;
  if (start > 0) start--;
  for (;;) {
    // The blocks touching it, with no blank line between.
    while (start > 0 && !isSpace(start - 1)) start--;
    let before = start - 1;
    while (before >= 0 && isSpace(before)) before--;
    if (before < 0 || blocks[before]?.type !== 'list') return start;
    // A list across blank lines, and then the blocks touching it.
    start = before;
  }
}
