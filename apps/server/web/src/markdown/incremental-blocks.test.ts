import fc from 'fast-check';
import type { Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { IncrementalBlocks, lexBlocks } from './incremental-blocks.js';

// What a full lex and the incremental one must agree on: every block, inline tokens and all.
const plain = (blocks: readonly Token[]) => JSON.parse(JSON.stringify(blocks)) as unknown;

/** Feeds `text` to a fresh lexer in pieces cut at `cuts`, as a stream would; returns every result. */
function pushInPieces(
  text: string,
  cuts: readonly number[],
): { lexer: IncrementalBlocks; last: readonly Token[] } {
  const lexer = new IncrementalBlocks();
  let last: readonly Token[] = [];
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) last = lexer.push(text.slice(0, cut));
  last = lexer.push(text);
  return { lexer, last };
}

describe('IncrementalBlocks', () => {
  it('keeps the finished blocks as the same objects when text is appended', () => {
    const lexer = new IncrementalBlocks();
    const first = lexer.push('# Title\n\nFirst paragraph.\n\nSecond');
    const second = lexer.push('# Title\n\nFirst paragraph.\n\nSecond paragraph, longer.');
    expect(second.map((block) => block.type)).toEqual([
      'heading',
      'space',
      'paragraph',
      'space',
      'paragraph',
    ]);
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    expect(second[4]).not.toBe(first[4]);
    expect(second[4]?.raw).toBe('Second paragraph, longer.');
  });

  it('lexes again from the last block: a paragraph that becomes a heading, a fence that closes', () => {
    const lexer = new IncrementalBlocks();
    lexer.push('intro\n\nTitle\n');
    expect(lexer.push('intro\n\nTitle\n===').map((block) => block.type)).toEqual([
      'paragraph',
      'space',
      'heading',
    ]);
    lexer.push('intro\n\n```js\nlet a = 1;\n\n');
    const closed = lexer.push('intro\n\n```js\nlet a = 1;\n\n```\nafter');
    expect(closed.map((block) => block.type)).toEqual(['paragraph', 'space', 'code', 'paragraph']);
  });

  it('lexes again from a list before a blank line: the next item may continue it', () => {
    const lexer = new IncrementalBlocks();
    expect(lexer.push('1. one\n\n2').map((block) => block.type)).toEqual(['list', 'space', 'paragraph']);
    expect(plain(lexer.push('1. one\n\n2. two'))).toEqual(plain(lexBlocks('1. one\n\n2. two')));
  });

  it('lexes again from the paragraph above a table that turns out not to be one', () => {
    const lexer = new IncrementalBlocks();
    expect(lexer.push('Title\nname\n|-').map((block) => block.type)).toEqual(['paragraph', 'table']);
    expect(plain(lexer.push('Title\nname\n|---|:-:|'))).toEqual(plain(lexBlocks('Title\nname\n|---|:-:|')));
  });

  it('lexes a text that does not extend the previous one whole', () => {
    const lexer = new IncrementalBlocks();
    const first = lexer.push('one\n\ntwo');
    const other = lexer.push('one\n\nthree');
    expect(plain(other)).toEqual(plain(lexBlocks('one\n\nthree')));
    expect(other[0]).not.toBe(first[0]);
  });

  it('turns a reference link in an earlier block into a link when its definition arrives', () => {
    const text = 'See [the docs][docs].\n\nMore text.\n\n[docs]: https://example.com/docs\n';
    const { last } = pushInPieces(text, [10, 30, 40, 50]);
    expect(plain(last)).toEqual(plain(lexBlocks(text)));
    expect(JSON.stringify(last[0])).toContain('"type":"link"');
  });

  it('gives the blocks a full lex gives, for any Markdown-ish text cut into any deltas', () => {
    // Fragments that open and close the constructs whose ends depend on what follows. Those that
    // change blocks before the last are handled by the lexer, not left out here: a reference
    // definition (lexed whole once there is one), a delimiter row that stops being a table and
    // gives its lines back to the paragraph above (found by this test), and a list item after a
    // blank line that continues the list before it (both: see `firstChangeable`; the second is
    // rarely hit here, as it needs a cut right after the item's number: the tests above pin both).
    const fragment = fc.constantFrom(
      '# Heading\n',
      '## Sub *heading*\n',
      'Title\n',
      '===\n',
      '---\n',
      '```ts\n',
      '```\n',
      '~~~\n',
      'const a = 1; // `code`\n',
      '    indented code\n',
      '- item\n',
      '- [ ] task\n',
      '  continued item\n',
      '* star item\n',
      '   - nested\n',
      '1. first\n',
      '2) second\n',
      '> quote\n',
      '> - quoted item\n',
      'lazy line\n',
      '| a | b |\n',
      '|---|:-:|\n',
      '| 1 | 2 |\n',
      'Plain **bold** and _em_ and ~~gone~~ text.\n',
      'A link [x](https://example.com) and <https://auto.example> and www.example.org\n',
      'see [ref] and [text][ref]\n',
      '[ref]: https://example.com/ref\n',
      '<div>\n',
      '<script>alert(1)\n',
      '</script>\n',
      '</div>\n',
      '<!-- comment -->\n',
      'trailing  \n',
      '\n',
      '\n\n',
      'text',
      ' ',
      '\r\n',
    );
    const arbitrary = fc
      .array(fragment, { maxLength: 24 })
      .map((parts) => parts.join(''))
      .chain((text) =>
        fc.tuple(fc.constant(text), fc.array(fc.nat({ max: Math.max(text.length, 1) }), { maxLength: 24 })),
      );
    fc.assert(
      fc.property(arbitrary, ([text, cuts]) => {
        const { last } = pushInPieces(text, cuts);
        expect(plain(last)).toEqual(plain(lexBlocks(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same blocks when fed one character at a time', () => {
    const text =
      '# Plan\n\nSome *text* here.\n\n- one\n- two\n\n  still two\n\n1. first\n\n2. second\n\n```py\nprint(1)\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> done\nlazily\n';
    const lexer = new IncrementalBlocks();
    for (let end = 1; end <= text.length; end++) {
      expect(plain(lexer.push(text.slice(0, end))), text.slice(0, end)).toEqual(
        plain(lexBlocks(text.slice(0, end))),
      );
    }
  });
});
