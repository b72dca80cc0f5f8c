import { startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { mockEnv, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

const HEAD = [
  '# Shopping list',
  '',
  'Buy **fresh** fruit:',
  '- apples',
  '- pears',
  '  - ripe ones',
  '',
  '```js',
  'const total = basket.length; // count',
  '```',
  '',
].join('\n');
// Streamed slowly after the head: the styled head is on the screen long before the answer ends.
const TAIL = `That is ${'all you need for a week of fruit. '.repeat(10)}END-OF-ANSWER`;

// An SGR escape whose parameters include 1 (bold), as styledScreen() writes it (`\e[1m`, `\e[0;1;4m`).
const BOLD = new RegExp(`${String.fromCharCode(27)}\\[(?:[\\d;]*;)?1(?:;[\\d;]*)?m`);
// highlight.js's keyword colour (magenta) right before the keyword.
const HIGHLIGHTED_CONST = '\u001b[35mconst';

const lineWith = (screen: string, text: string) =>
  screen.split('\n').find((line) => line.includes(text)) ?? '';

/** The screen shows the head rendered: a bold heading without its #, • bullets, highlighted code. */
function expectRenderedHead(styled: string, screen: string): void {
  expect(lineWith(styled, 'Shopping list')).toMatch(BOLD);
  expect(screen).not.toContain('# Shopping list');
  expect(screen).toContain('  • apples\n  • pears\n    ◦ ripe ones');
  expect(lineWith(styled, 'Buy')).toMatch(BOLD);
  expect(screen).not.toContain('**fresh**');
  expect(styled).toContain(HIGHLIGHTED_CONST);
  expect(screen).not.toContain('```');
}

describe('Markdown in a real terminal', () => {
  it('styles headings, lists and code while the answer streams, and shows it the same way again', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: `${HEAD}${TAIL}`, chunkSize: 4, chunkDelayMs: 60, delayMs: 1_500 }],
    });
    const dir = tempDir('pty-markdown');
    // Colour on: the test environment's NO_COLOR is emptied (an empty one does not count).
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color', NO_COLOR: '' });
    try {
      const chat = openTerminal(dir);
      chat.start(['chat', '--workspace', dir], env);
      await chat.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');
      chat.type('what should I buy?');
      chat.keys('Enter');

      // Before the first token the spinner names the model it waits for, and counts the seconds.
      await chat.waitFor((screen) => /waiting for mock-model… \(\ds\)/.test(screen), 'the spinner');

      // The head is rendered while the tail is still streaming.
      const streaming = await chat.waitFor(
        (screen) => screen.includes('basket.length') && !screen.includes('END-OF-ANSWER'),
        'the code block before the end of the answer',
      );
      expectRenderedHead(chat.styledScreen(), streaming);

      const done = await chat.waitFor((screen) => screen.includes('END-OF-ANSWER'), 'the end of the answer');
      expectRenderedHead(chat.styledScreen(), done);
      chat.type('/exit');
      chat.keys('Enter');
      const closing = await chat.waitFor((screen) => screen.includes('cairn chat --resume'), 'the exit line');
      const id = /cairn chat --resume (\S+)/.exec(closing)?.[1] as string;

      // The stored answer, shown again, looks as it did while it streamed.
      const show = openTerminal(dir);
      show.start(['conversations', 'show', id], env);
      const shown = await show.waitForExit('› what should I buy?', 'conversations show');
      expectRenderedHead(show.styledScreen(), shown);
      expect(shown).toContain('› what should I buy?');
    } finally {
      await server.close();
    }
  }, 90_000);

  it('renders `cairn -p` on a terminal, and --plain prints the raw text', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: HEAD }, { text: HEAD }],
    });
    const dir = tempDir('pty-plain');
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color', NO_COLOR: '' });
    try {
      const rendered = openTerminal(dir);
      rendered.start(['-p', 'what should I buy?'], env);
      const screen = await rendered.waitForExit(/^conversation chat-/m, 'the rendered answer');
      expectRenderedHead(rendered.styledScreen(), screen);

      const plain = openTerminal(dir);
      plain.start(['-p', 'what should I buy?', '--plain'], env);
      const raw = await plain.waitForExit(/^conversation chat-/m, 'the plain answer');
      expect(raw).toContain(HEAD.trimEnd());
      expect(plain.styledScreen()).not.toContain(HIGHLIGHTED_CONST);
      expect(lineWith(plain.styledScreen(), 'Shopping list')).not.toMatch(BOLD);
    } finally {
      await server.close();
    }
  }, 60_000);
});
