import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMarkdownStream, renderMarkdown } from './markdown-stream.js';
import { ANSI, ansiColors, plainColors } from './test-support.js';

const plain = (text: string, width?: number) =>
  renderMarkdown(text, { colors: plainColors, ...(width === undefined ? {} : { width }) });
const styled = (text: string) => renderMarkdown(text, { colors: ansiColors, width: 60 });

describe('renderMarkdown', () => {
  it('shows headings without their #, bold, the first one underlined too (with their # without colour)', () => {
    expect(plain('# Title\n##   Part\nText')).toBe('# Title\n##   Part\nText\n');
    expect(styled('# Title\n### Part')).toBe(
      `${ansiColors.bold(ansiColors.underline('Title'))}\n${ansiColors.bold('Part')}\n`,
    );
    // Not headings: no blank after the #, or more than six.
    expect(plain('#hashtag\n####### seven')).toBe('#hashtag\n####### seven\n');
  });

  it('indents lists by depth with • bullets, keeps numbers, and puts continuation lines under the text', () => {
    expect(plain('- one\n- two\n  - nested\n    - deeper\n* star\n+ plus')).toBe(
      '  • one\n  • two\n    ◦ nested\n      ▪ deeper\n  • star\n  • plus\n',
    );
    expect(plain('1. first\n2. second\n   more about it\n   - a detail\n\nAfter the list')).toBe(
      '  1. first\n  2. second\n     more about it\n     ◦ a detail\n\nAfter the list\n',
    );
    expect(styled('- item')).toBe(`  ${ansiColors.dim('•')} item\n`);
  });

  it('marks block quotes, draws rules, and keeps an indented line indented', () => {
    expect(plain('> a quote\n>> nested\n\n---\n* * *\n    indented', 20)).toBe(
      `│ a quote\n│ │ nested\n\n${'─'.repeat(20)}\n${'─'.repeat(20)}\n    indented\n`,
    );
  });

  it('renders inline code, emphasis, strikethrough and links', () => {
    expect(
      plain('Run `npm test`, **now**, *please*, ~~never~~ [the docs](https://x.dev) ![logo](a.png)'),
    ).toBe('Run `npm test`, now, please, never the docs (https://x.dev) logo (a.png)\n');
    expect(styled('`a` **b** *c* _d_ ~~e~~ [f](g)')).toBe(
      `${ansiColors.cyan('a')} ${ansiColors.bold('b')} ${ansiColors.italic('c')} ${ansiColors.italic('d')} ${ansiColors.strikethrough('e')} ${ansiColors.underline('f')} ${ansiColors.dim('(g)')}\n`,
    );
    // Inside a heading the heading's bold is opened again after a span.
    expect(styled('## Use `cairn`')).toBe(`${ANSI}1mUse ${ansiColors.cyan('cairn')}${ANSI}1m${ANSI}22m\n`);
  });

  it('leaves what is not a complete span as typed: no emphasis inside words or around blanks', () => {
    const text = 'snake_case and 2*3*4 and a * b and **open and `tick and [x] and \\*escaped\\*';
    expect(plain(text)).toBe(`${text.replace(/\\\*/g, '*')}\n`);
    expect(styled(text)).not.toContain(ANSI);
  });

  it('indents fenced code under its language, highlighted when colour is on', () => {
    const text = '```ts\nconst x = 1; // one\n\nfunction f() {}\n```\nAfter';
    expect(plain(text)).toBe('  ts\n  const x = 1; // one\n\n  function f() {}\nAfter\n');
    const output = styled(text);
    expect(output).toContain(`  ${ansiColors.magenta('const')} x = `);
    expect(output).toContain(ansiColors.gray('// one'));
    expect(output.endsWith('After\n')).toBe(true);
  });

  it('paints each line of a comment or string that spans lines', () => {
    const output = styled('```js\n/* one\ntwo */ let a = "x";\n```');
    expect(output).toContain(`  ${ansiColors.gray('/* one')}\n  ${ansiColors.gray('two */')} `);
    expect(output).toContain(ansiColors.green('"x"'));
  });

  it('shows code in an unknown language, or none, as it is', () => {
    expect(styled('```nosuchlanguage\nlet a = 1\n```')).toBe(
      `  ${ansiColors.dim('nosuchlanguage')}\n  let a = 1\n`,
    );
    expect(styled('```\nlet a = 1\n```')).toBe('  let a = 1\n');
    // No Markdown inside code.
    expect(plain('~~~\n# not a heading\n- not a list\n~~~')).toBe('  # not a heading\n  - not a list\n');
  });

  it('flushes a code block left open at the end of the answer', () => {
    expect(plain('Look:\n```py\ndef f():\n    return 1')).toBe('Look:\n  py\n  def f():\n      return 1\n');
    expect(styled('```py\ndef f():')).toContain(ansiColors.magenta('def'));
  });

  it('lines up a table, with its header bold, keeping a table too wide for the terminal unpadded', () => {
    const table = '| Name | Age |\n|:-----|----:|\n| Ann | 30 |\n| Bob | 4 |';
    expect(plain(table)).toBe('Name │ Age\n─────┼────\nAnn  │  30\nBob  │   4\n');
    expect(styled(table)).toContain(
      `${ansiColors.bold('Name')}${ansiColors.dim(' │ ')}${ansiColors.bold('Age')}`,
    );
    expect(plain(table, 8)).toBe('Name │ Age\nAnn │ 30\nBob │ 4\n');
    // Rows without the |---| line are not a table: shown as they are.
    expect(plain('| a | b |\nafter')).toBe('| a | b |\nafter\n');
  });

  it('writes nothing on its own and no escape codes without colour', () => {
    expect(plain('')).toBe('');
    expect(plain('\n\n')).toBe('\n\n');
    expect(plain('a\r\nb')).toBe('a\nb\n');
  });
});

describe('createMarkdownStream', () => {
  it('shows a line as its text arrives, once its start says what it is', () => {
    const stream = createMarkdownStream({ colors: plainColors });
    expect(stream.push('Once upon')).toBe('Once upon');
    expect(stream.push(' a time\n- ')).toBe(' a time\n');
    expect(stream.push('it')).toBe('  • it');
    expect(stream.push(' was **da')).toBe(' was ');
    expect(stream.push('rk**.')).toBe('dark.');
    expect(stream.end()).toBe('\n');
  });

  it('holds code lines until they end, and a table until it ends', () => {
    const stream = createMarkdownStream({ colors: plainColors });
    expect(stream.push('```sh\nnpm te')).toBe('  sh\n');
    expect(stream.push('st\n```\n| a |\n|---|\n| 1 |\n')).toBe('  npm test\n');
    expect(stream.push('Done')).toBe('a\n─\n1\nDone');
    expect(stream.end()).toBe('\n');
  });

  it('can be used again after its end', () => {
    const stream = createMarkdownStream({ colors: plainColors });
    stream.push('```\nopen code');
    expect(stream.end()).toBe('  open code\n');
    expect(stream.push('- next\n')).toBe('  • next\n');
  });
});

// Markdown-ish text: whole spans, and the pieces that change how a line or a span is read, in any order.
const markdownText = fc
  .array(
    fc.constantFrom(
      '# ',
      '### ',
      '####### ',
      '#',
      '- ',
      '* ',
      '+ ',
      '1. ',
      '12) ',
      '> ',
      '>',
      '---',
      '***',
      '___',
      '```',
      '```ts',
      '```py\n',
      '~~~',
      '|',
      ' | ',
      '|---|---|',
      ':-:',
      '**',
      '*',
      '_',
      '~~',
      '`',
      '``',
      '\\',
      '[',
      ']',
      '](',
      '(',
      ')',
      '!',
      '[the docs](https://x.dev/a_(b))',
      '![alt](img.png)',
      '`code`',
      '**bold**',
      '*it*',
      '~~gone~~',
      '| a | b |\n',
      'word',
      'snake_case',
      'Hello world',
      'const x = "s"; /* c',
      '*/',
      '2',
      'é日本',
      ' ',
      '  ',
      '\t',
      '\n',
      '\n\n',
      '\r\n',
    ),
    { maxLength: 60 },
  )
  .map((pieces) => pieces.join(''));

// The text cut at the given places (any of them, in any order).
function cut(text: string, places: number[]): string[] {
  const points = [...new Set(places.map((place) => place % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...points].map((start, index) => text.slice(start, points[index] ?? text.length));
}

describe('createMarkdownStream properties', () => {
  it('renders text in any pieces exactly as in one', () => {
    fc.assert(
      fc.property(markdownText, fc.array(fc.nat(), { maxLength: 12 }), (text, places) => {
        const stream = createMarkdownStream({ colors: ansiColors, width: 40 });
        const pieces = cut(text, places).map((piece) => stream.push(piece));
        expect(pieces.join('') + stream.end()).toBe(renderMarkdown(text, { colors: ansiColors, width: 40 }));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every letter and digit of the text, in order, and adds none, without colour', () => {
    const alphanumerics = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '');
    fc.assert(
      fc.property(markdownText, (text) => {
        const output = plain(text, 40);
        expect(output).not.toContain('\u001b');
        expect(alphanumerics(output)).toBe(alphanumerics(text));
      }),
      { numRuns: 500 },
    );
  });
});
