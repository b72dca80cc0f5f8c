import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SCRIPT, PLAIN_PROMPT_PREFIX, plainReply } from './support/browser-model-script.js';
import { openPage, startConversation } from './support/browser-page.js';
import {
  type BrowserTestServer,
  ensureWebBuilt,
  PACKAGE_DIR,
  startBrowserTestServer,
  WEB_ROOT,
} from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const SCREENSHOT = join(PACKAGE_DIR, '.test-results', 'web-page.png');

/** The browser globals used by functions run in the page (this TypeScript project has no DOM types). */
interface PageGlobals {
  document: { querySelector(selector: string): { textContent: string | null } | null };
  sessionStorage: { getItem(key: string): string | null };
}

let server: BrowserTestServer | undefined;

beforeAll(() => ensureWebBuilt());

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the web page routes', () => {
  it('serves the page at / without a token, revalidated, with a strict content security policy', async () => {
    server = await startBrowserTestServer({ apiToken: API_TOKEN });
    const page = await fetch(`${server.baseURL}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<div id="app"></div>');
    // The API behind it still wants the token.
    expect((await fetch(`${server.baseURL}/v1/conversations`)).status).toBe(401);
  });

  it('serves the hashed assets with their content types, cached for a year', async () => {
    server = await startBrowserTestServer({ apiToken: API_TOKEN });
    const assets = await readdir(join(WEB_ROOT, 'assets'));
    const script = assets.find((name) => name.endsWith('.js'));
    const style = assets.find((name) => name.endsWith('.css'));
    for (const [name, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ] as const) {
      const response = await fetch(`${server.baseURL}/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await response.text()).toBe(await readFile(join(WEB_ROOT, 'assets', String(name)), 'utf8'));
    }
  });

  it('answers 404 for anything but a file directly inside assets/', async () => {
    server = await startBrowserTestServer({ apiToken: API_TOKEN });
    for (const path of [
      '/assets/..%2f..%2fpackage.json',
      '/assets/%2e%2e%2findex.html',
      '/assets/..%5c..%5cpackage.json',
      '/assets/.hidden.js',
      '/assets/missing-abc123.js',
      '/assets/',
      '/index.html.map',
      '/package.json',
    ]) {
      const response = await fetch(`${server.baseURL}${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});

describeInChromium('the web page', ({ browser, startServer }) => {
  /** Signs in as a user would who mistyped the token first: the page says so and asks again. */
  async function signIn(page: Page, baseURL: string): Promise<void> {
    await page.goto(`${baseURL}/`);
    const tokenField = page.getByLabel('API token');
    await tokenField.fill('not-the-token-0123456789');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('alert').filter({ hasText: 'did not accept' }).waitFor();
    await tokenField.fill(API_TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('button', { name: 'New conversation' }).waitFor();
  }

  it('asks for the token, streams a reply with tool execution cards, and shows it again after a reload', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL);
    // The token is kept for the tab, never put in the address.
    const storedToken = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).sessionStorage.getItem('cairn.apiToken'),
    );
    expect(storedToken).toBe(API_TOKEN);
    expect(page.url()).not.toContain(API_TOKEN);

    await startConversation(page, BROWSER_SCRIPT.editPrompt);
    const { finalReply } = BROWSER_SCRIPT;
    // Streaming: the reply is seen part-written before it is stored.
    await page.waitForFunction(
      (full) => {
        const { document } = globalThis as unknown as PageGlobals;
        const streaming = document.querySelector('[aria-label="Streaming reply"]')?.textContent ?? '';
        return streaming.length > 0 && streaming.length < full.length && full.startsWith(streaming);
      },
      finalReply,
      { polling: 'raf' },
    );
    const reply = page.getByRole('article', { name: 'Assistant reply' }).filter({ hasText: finalReply });
    await reply.waitFor();
    await page.getByRole('article', { name: 'Streaming reply' }).waitFor({ state: 'detached' });
    expect(await readFile(join(server.workspace, 'notes.txt'), 'utf8')).toBe(BROWSER_SCRIPT.fileAfter);

    // The edit's card: a summary line that opens to the coloured diff.
    const editCard = page.getByRole('article', { name: 'Tool execution: Updated notes.txt' });
    const diff = editCard.getByLabel('Diff of notes.txt');
    expect(await diff.isVisible()).toBe(false);
    await editCard.locator('summary').click();
    await diff.waitFor();
    expect(await diff.locator('.diff-removed').allTextContents()).toEqual(['-hello world\n']);
    expect(await diff.locator('.diff-added').allTextContents()).toEqual(['+hello web\n']);
    // The command's card: collapsed, its exit code on the summary line, its output inside.
    const commandCard = page.getByRole('article', {
      name: `Tool execution: Ran \`${BROWSER_SCRIPT.checkCommand}\``,
    });
    await commandCard.locator('summary').getByText('exit code 0').waitFor();
    await commandCard.locator('summary').click();
    expect(await commandCard.getByLabel('Command output').textContent()).toBe('greeting-checked');

    await mkdir(join(PACKAGE_DIR, '.test-results'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    // A reload renders the conversation from the store's display view, without asking again.
    const displayView = page.waitForResponse((response) => response.url().includes('view=display'));
    await page.reload();
    expect((await displayView).status()).toBe(200);
    const listed = page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('link', { name: BROWSER_SCRIPT.editPrompt });
    await listed.waitFor();
    expect(await listed.getAttribute('aria-current')).toBe('page');
    await page
      .getByRole('article', { name: 'Your message' })
      .filter({ hasText: BROWSER_SCRIPT.editPrompt })
      .waitFor();
    await page.getByRole('article', { name: 'Tool execution: Updated notes.txt' }).waitFor();
    await reply.waitFor();
    expect(await page.getByLabel('API token').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('sends pasted, dropped and picked files with a message, shows images inline and files as links', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('heading', { name: 'New conversation' }).waitFor();
    const box = page.getByLabel('Message', { exact: true });
    await box.fill('What do these show?');
    // A screenshot pasted: a 240×160 PNG of noise drawn in the page (large enough to be stored as a blob).
    await page.evaluate(`(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 240;
      canvas.height = 160;
      const context = canvas.getContext('2d');
      const pixels = context.createImageData(240, 160);
      for (let at = 0; at < pixels.data.length; at++) pixels.data[at] = at % 4 === 3 ? 255 : (at * 7919) % 251;
      context.putImageData(pixels, 0, 0);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      const pasted = new DataTransfer();
      pasted.items.add(new File([blob], 'image.png', { type: 'image/png' }));
      document.querySelector('textarea').dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }),
      );
      // A PDF dropped on the send box.
      const dropped = new DataTransfer();
      dropped.items.add(new File(['%PDF-1.4\\n%%EOF\\n'], 'report.pdf', { type: 'application/pdf' }));
      document.querySelector('form.composer').dispatchEvent(
        new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }),
      );
    })()`);
    // A CSV from the file picker.
    await page.getByLabel('Attach files').setInputFiles({
      name: 'data.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('a,b\n1,2\n'),
    });
    const pending = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    expect(await pending.allTextContents()).toEqual([
      expect.stringMatching(/^pasted-.*\.png×$/),
      'report.pdf×',
      'data.csv×',
    ]);
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const reply = page.getByRole('article', { name: 'Assistant reply' });
    // The bubble's text alone (the message's line under it has its time and actions).
    await reply
      .filter({
        has: page.locator('.bubble', { hasText: /^Received pasted-.*\.png, report\.pdf, data\.csv\.$/ }),
      })
      .waitFor();
    const sent = page.getByRole('article', { name: 'Your message' });
    const image = sent.getByRole('img');
    const shownImage = async () => {
      await image.waitFor();
      await page.waitForFunction(() => {
        const { document } = globalThis as unknown as {
          document: { querySelector(selector: string): { naturalWidth: number } | null };
        };
        return document.querySelector('.attachment-image img')?.naturalWidth === 240;
      });
      expect(await image.getAttribute('src')).toMatch(/^blob:/);
      await sent.getByRole('link', { name: /report\.pdf/ }).waitFor();
      await sent.getByRole('link', { name: /data\.csv/ }).waitFor();
    };
    await shownImage();
    expect(await sent.locator('figcaption').textContent()).toMatch(/^pasted-.*\.png \(\d+ KB\)$/);

    // Stored as parts, the image's bytes as a blob; a reload shows it again from the attachments route.
    const conversationId = decodeURIComponent(new URL(page.url()).hash.slice(1));
    const [user] = await server.store.load(conversationId, { limit: 1 });
    const parts = user?.content as Array<{ type: string; source?: { type: string } }>;
    expect(parts.map((part) => [part.type, part.source?.type])).toEqual([
      ['text', undefined],
      ['image', 'blob'],
      ['file', 'base64'],
      ['file', 'base64'],
    ]);
    const fetched = page.waitForResponse((response) => response.url().includes('/attachments/'));
    await page.reload();
    const attachment = await fetched;
    expect(attachment.status()).toBe(200);
    expect(attachment.headers()['content-type']).toBe('image/png');
    await shownImage();

    // A file the server refuses: its reason on the page, nothing stored.
    await page.getByLabel('Attach files').setInputFiles({
      name: 'evil.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'evil.svg: the SVG holds script' }).waitFor();
    expect(await server.store.load(conversationId)).toHaveLength(2);
    expect(pageErrors).toEqual([]);
  });

  it('aborts a slow turn with the Abort button', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL);
    await startConversation(page, BROWSER_SCRIPT.slowPrompt);
    const abort = page.getByRole('button', { name: 'Abort' });
    await page
      .getByRole('article', { name: 'Your message' })
      .filter({ hasText: BROWSER_SCRIPT.slowPrompt })
      .waitFor();
    expect(await abort.isEnabled()).toBe(true);
    await abort.click();
    await page.getByRole('article', { name: 'Error' }).filter({ hasText: 'LLM_ABORTED' }).waitFor();
    await page.getByRole('status').waitFor({ state: 'detached' });
    expect(await abort.isEnabled()).toBe(false);
    const conversationId = decodeURIComponent(new URL(page.url()).hash.slice(1));
    const stored = await server.store.load(conversationId);
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_ABORTED' });
    expect(pageErrors).toEqual([]);
  });

  it('shows a conversation deleted and created again from scratch, and drops one deleted for good', async () => {
    const server = await startServer();
    const { baseURL } = server;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${baseURL}/v1/conversations${path}`, {
        ...init,
        headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
      });
    const say = async (id: string, word: string) => {
      const response = await api(`/${id}/messages`, {
        method: 'POST',
        body: JSON.stringify({ content: `${PLAIN_PROMPT_PREFIX}${word}` }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ success: true });
    };
    const remove = async (id: string) => expect((await api(`/${id}`, { method: 'DELETE' })).status).toBe(204);
    const { id } = (await (await api('', { method: 'POST', body: '{}' })).json()) as { id: string };
    // Seqs 1-4; the re-created conversation's 5 and 6 are what a bare-seq resume would append.
    const oldWords = ['apple', 'banana'];
    const newWords = ['cherry', 'damson', 'elder'];
    for (const word of oldWords) await say(id, word);

    const { page, pageErrors } = await openPage(browser());
    await signIn(page, baseURL);
    const list = page.getByRole('navigation', { name: 'Conversations' });
    const log = page.getByRole('log', { name: 'Messages' });
    const replies = log.getByRole('article', { name: 'Assistant reply' });
    const prompts = log.getByRole('article', { name: 'Your message' });
    // The page follows the conversation's live feed before it is deleted.
    const feedOpened = page.waitForResponse((response) => response.url().includes(`/${id}/events`));
    await list.getByRole('link', { name: `${PLAIN_PROMPT_PREFIX}apple` }).click();
    await replies.filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}banana`) }).waitFor();
    expect((await feedOpened).status()).toBe(200);

    await remove(id);
    for (const word of newWords) await say(id, word);
    await replies.filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}elder`) }).waitFor();
    expect(await prompts.locator('.bubble').allTextContents()).toEqual(
      newWords.map((word) => `${PLAIN_PROMPT_PREFIX}${word}`),
    );
    expect(await replies.locator('.bubble').allTextContents()).toEqual(
      newWords.map((word) => plainReply(`${PLAIN_PROMPT_PREFIX}${word}`)),
    );
    await list.getByRole('link', { name: `${PLAIN_PROMPT_PREFIX}cherry` }).waitFor();
    await page.getByRole('heading', { name: `${PLAIN_PROMPT_PREFIX}cherry` }).waitFor();
    expect(await list.getByRole('link', { name: `${PLAIN_PROMPT_PREFIX}apple` }).count()).toBe(0);

    // Deleted while the page follows it, not created again: gone from the list and the view.
    await remove(id);
    await list.getByRole('link', { name: `${PLAIN_PROMPT_PREFIX}cherry` }).waitFor({ state: 'detached' });
    await log.getByText('This conversation was deleted.').waitFor();
    expect(await log.getByRole('article').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('asks for no token when the server has none (loopback --insecure-local)', async () => {
    const server = await startServer({});
    const { page, pageErrors } = await openPage(browser());
    await page.goto(`${server.baseURL}/`);
    await page.getByRole('button', { name: 'New conversation' }).waitFor();
    expect(await page.getByLabel('API token').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
