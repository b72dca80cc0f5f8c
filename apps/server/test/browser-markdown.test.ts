import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MARKDOWN_PROMPT_PREFIX } from './support/browser-model-script.js';
import { openPage, signIn, startConversation } from './support/browser-page.js';
import { PACKAGE_DIR } from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const SCREENSHOT = join(PACKAGE_DIR, '.test-results', 'markdown.png');

// Every hostile line sets the trap `window.__pwned`, or opens a dialog, if it ever runs.
const HOSTILE = [
  'Inline: <script>window.__pwned = 1</script> and <img src=x onerror="window.__pwned = 2; alert(2)">',
  '',
  '<iframe src="javascript:window.__pwned = 3"></iframe>',
  '',
  '<div onmouseover="window.__pwned = 4">a raw HTML block</div>',
  '',
  'Links: [plain](javascript:window.__pwned=5) [cased](JaVaScRiPt:window.__pwned=6) [entity](&#106;avascript:window.__pwned=7) [data](data:text/html,<script>parent.__pwned=8</script>) ![pixel](https://tracker.example/pixel.png)',
].join('\n');

const REPLY = [
  '# Markdown reply',
  '',
  'The first paragraph, with **bold**, _emphasis_, ~~struck~~ and `inline <code>`.',
  '',
  '## A table',
  '',
  '| Language | Typed |',
  '|:---------|:-----:|',
  '| TypeScript | yes |',
  '| Python | no |',
  '',
  '```ts',
  'const answer: number = 42;',
  'function greet(name: string) {',
  "  return 'hello ' + name;",
  '}',
  '```',
  '',
  '- [x] done',
  '- [ ] to do',
  '',
  HOSTILE,
  '',
  'See [the docs](https://example.com/docs) or https://example.org.',
  '',
  'The last paragraph.',
].join('\n');

/** The browser globals used by functions run in the page (this TypeScript project has no DOM types). */
interface PageElement {
  textContent: string | null;
  __marker?: number;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  getAttributeNames(): string[];
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  document: PageElement & { contains(element: PageElement): boolean };
  __pwned?: unknown;
  __mutations?: number;
  __first?: PageElement;
  MutationObserver: new (
    callback: (records: unknown[]) => void,
  ) => { observe(target: PageElement, options: Record<string, boolean>): void };
}

describeInChromium('Markdown replies', ({ browser, startServer }) => {
  it('streams a reply as Markdown, keeps finished blocks in place, and runs none of its hostile HTML', async () => {
    const server = await startServer();
    // Without the page's policy, so that the traps would fire if any HTML from the reply were
    // parsed: the rendering alone must keep it inert.
    const { page, pageErrors } = await openPage(browser(), {
      viewport: { width: 1100, height: 1400 },
      bypassCSP: true,
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    await signIn(page, server.baseURL, API_TOKEN);
    await startConversation(page, `${MARKDOWN_PROMPT_PREFIX}${REPLY}`);

    // While it streams: once the second heading shows, the first paragraph is finished. Mark it
    // and watch it for any change.
    const streaming = '[aria-label="Streaming reply"] .markdown';
    await page.waitForFunction(
      (selector) =>
        (globalThis as unknown as PageGlobals).document.querySelector(`${selector} > h2`) !== null,
      streaming,
      { polling: 'raf' },
    );
    await page.evaluate((selector) => {
      const globals = globalThis as unknown as PageGlobals;
      const first = globals.document.querySelector(`${selector} > p`);
      if (first === null) throw new Error('no paragraph yet');
      first.__marker = 1;
      globals.__first = first;
      globals.__mutations = 0;
      new globals.MutationObserver((records) => {
        globals.__mutations = (globals.__mutations ?? 0) + records.length;
      }).observe(first, { subtree: true, childList: true, characterData: true, attributes: true });
    }, streaming);
    // Many deltas later, still streaming: the code block is there, coloured.
    await page.waitForFunction(
      (selector) =>
        (globalThis as unknown as PageGlobals).document.querySelector(`${selector} .hljs-keyword`) !== null,
      streaming,
      { polling: 'raf' },
    );
    const during = await page.evaluate((selector) => {
      const globals = globalThis as unknown as PageGlobals;
      const first = globals.document.querySelector(`${selector} > p`);
      return {
        same: first !== null && first === globals.__first && first.__marker === 1,
        mutations: globals.__mutations,
        stillStreaming: globals.document.querySelector('[aria-label="Streaming reply"]') !== null,
      };
    }, streaming);
    expect(during).toEqual({ same: true, mutations: 0, stillStreaming: true });

    // Stored: the reply as the store has it, drawn the same way.
    const reply = page.getByRole('article', { name: 'Assistant reply' });
    await reply.filter({ hasText: 'The last paragraph.' }).waitFor();
    await page.getByRole('article', { name: 'Streaming reply' }).waitFor({ state: 'detached' });
    expect(await reply.locator('h1').textContent()).toBe('Markdown reply');
    expect(await reply.locator('h2').textContent()).toBe('A table');
    expect(await reply.locator('table th').allTextContents()).toEqual(['Language', 'Typed']);
    expect(await reply.locator('table tbody tr').count()).toBe(2);
    expect(await reply.locator('table th').nth(1).getAttribute('class')).toBe('md-align-center');
    expect(await reply.locator('.hljs-keyword').first().textContent()).toBe('const');
    expect(await reply.locator('.hljs-string').first().textContent()).toContain('hello');
    expect(await reply.locator('strong').first().textContent()).toBe('bold');
    expect(await reply.locator('del').textContent()).toBe('struck');
    expect(await reply.locator('input[type="checkbox"]:checked').count()).toBe(1);
    const docs = reply.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('rel')).toBe('noopener noreferrer');

    // The hostile part: shown as text, its links plain text, nothing loaded or run.
    const text = (await reply.textContent()) ?? '';
    expect(text).toContain('<script>window.__pwned = 1</script>');
    expect(text).toContain('<iframe src="javascript:window.__pwned = 3"></iframe>');
    const inert = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageGlobals;
      const markdown = Array.from(document.querySelectorAll('.markdown'));
      const elements = markdown.flatMap((root) => Array.from(root.querySelectorAll('*')));
      return {
        forbidden: markdown.reduce(
          (count, root) => count + root.querySelectorAll('script, iframe, img, object, embed, style').length,
          0,
        ),
        handlers: elements.flatMap((element) =>
          element.getAttributeNames().filter((name) => name.startsWith('on')),
        ),
        hrefs: elements.flatMap((element) => {
          const href = element.getAttribute('href');
          return href === null ? [] : [href];
        }),
      };
    });
    expect(inert.forbidden).toBe(0);
    expect(inert.handlers).toEqual([]);
    for (const href of inert.hrefs) expect(href).toMatch(/^(https?|mailto):/);
    expect(inert.hrefs).toContain('https://tracker.example/pixel.png');
    for (const name of ['plain', 'cased', 'entity', 'data']) {
      await reply.locator('.md-unsafe-link', { hasText: name }).click();
    }
    await reply.locator('.md-source').first().hover();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);

    // The sender's own message stays plain text, whitespace and all.
    const sent = page.getByRole('article', { name: 'Your message' });
    expect(await sent.locator('h1, table, code').count()).toBe(0);
    expect(await sent.textContent()).toContain('| TypeScript | yes |\n| Python | no |');

    await mkdir(join(PACKAGE_DIR, '.test-results'), { recursive: true });
    await reply.screenshot({ path: SCREENSHOT });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
