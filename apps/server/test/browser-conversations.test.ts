import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationStore } from '@cairn/core';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { BROWSER_SCRIPT } from './support/browser-model-script.js';
import { openPage as openTab, signIn, UI_TIMEOUT_MS } from './support/browser-page.js';
import { type BrowserTestServer, PACKAGE_DIR } from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const RESULTS_DIR = join(PACKAGE_DIR, '.test-results');
// The page's undo window is 6 s: waits past it, with room for a loaded machine.
const PAST_UNDO_WINDOW_MS = 8_000;

/** A stored conversation: the user's message (its title), and a reply. */
async function seed(store: ConversationStore, id: string, prompt: string, reply = 'Noted.'): Promise<void> {
  const createdAt = new Date().toISOString();
  await store.append(id, [
    { id: `${id}-user`, role: 'user', content: prompt, createdAt },
    { id: `${id}-reply`, role: 'assistant', content: reply, createdAt },
  ]);
}

describeInChromium('the conversation list', ({ browser, startServer }) => {
  let server: BrowserTestServer | undefined;

  /** A signed-in tab on the test server; it fails the test on any uncaught page error. */
  async function openPage(): Promise<{ page: Page; pageErrors: string[] }> {
    const opened = await openTab(browser());
    await signIn(opened.page, String(server?.baseURL), API_TOKEN);
    return opened;
  }

  const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
  /** A row's Rename or Delete button (their names hold the row's title). */
  const rowAction = (page: Page, action: 'Rename' | 'Delete', title: string) =>
    sidebar(page).getByRole('button', { name: `${action} “${title}”`, exact: true });
  const shownTitles = (page: Page) => sidebar(page).locator('.conversation-title').allTextContents();
  const openId = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
  const screenshot = async (page: Page, name: string) => {
    await mkdir(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: join(RESULTS_DIR, `conversation-list-${name}.png`) });
  };
  /** The server's answer for one conversation's messages, with the token. */
  const messagesStatus = async (id: string) =>
    (
      await fetch(`${server?.baseURL}/v1/conversations/${id}/messages`, {
        headers: { authorization: `Bearer ${API_TOKEN}` },
      })
    ).status;

  it('lists a new conversation at once, and by its title while its first turn still runs', async () => {
    server = await startServer();
    await seed(server.store, 'older', 'An older conversation');
    const { page, pageErrors } = await openPage();
    await page.getByRole('button', { name: 'New conversation' }).click();
    // Before anything is sent: a row at the top, selected.
    const rows = sidebar(page).getByRole('link');
    await rows.first().filter({ hasText: 'New conversation' }).waitFor();
    expect(await rows.first().getAttribute('aria-current')).toBe('page');
    expect(await rows.count()).toBe(2);

    await page.getByLabel('Message', { exact: true }).fill(BROWSER_SCRIPT.slowPrompt);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const titled = sidebar(page).getByRole('link', { name: BROWSER_SCRIPT.slowPrompt });
    await titled.waitFor();
    // The slow turn answers only after a minute: it is still running.
    expect(await page.getByRole('button', { name: 'Abort' }).isEnabled()).toBe(true);
    expect(await titled.getAttribute('aria-current')).toBe('page');
    expect(await rows.count()).toBe(2);
    await page.getByRole('heading', { name: BROWSER_SCRIPT.slowPrompt }).waitFor();
    await screenshot(page, 'new');
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByRole('button', { name: 'Abort' }).and(page.locator(':disabled')).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('loads 130 conversations page by page as the list is scrolled, each once', async () => {
    server = await startServer();
    const titles = Array.from({ length: 130 }, (_, index) => `Seeded ${String(index).padStart(3, '0')}`);
    for (const [index, title] of titles.entries()) await seed(server.store, `seeded-${index}`, title);
    const { page, pageErrors } = await openPage();
    const links = sidebar(page).getByRole('link');
    await links.nth(49).waitFor();
    // The first page, and the button that loads the next one from the keyboard.
    await sidebar(page).getByRole('button', { name: 'Load more' }).waitFor();
    expect(await links.count()).toBe(50);
    const pageRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/conversations?')) pageRequests.push(request.url());
    });
    // Scrolling to the end of the list (never clicking Load more) brings the next page.
    const list = sidebar(page).locator('ul');
    for (let scrolls = 0; scrolls < 20 && (await links.count()) < 130; scrolls++) {
      await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await page.waitForTimeout(200);
    }
    const names = await shownTitles(page);
    expect(names).toHaveLength(130);
    expect(new Set(names)).toEqual(new Set(titles));
    await sidebar(page).getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    expect(pageRequests.length).toBe(2);
    expect(pageRequests.every((url) => url.includes('cursor=') && url.includes('limit=50'))).toBe(true);
    await screenshot(page, 'scrolled');
    expect(pageErrors).toEqual([]);
  });

  it('renames a conversation in place: Enter saves (kept after a reload), Escape cancels, errors show inline', async () => {
    server = await startServer();
    await seed(server.store, 'apples', 'Talk about apples');
    await seed(server.store, 'pears', 'Talk about pears');
    const { page, pageErrors } = await openPage();
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.url());
    });
    const field = sidebar(page).getByRole('textbox', { name: 'Conversation title' });

    // From the keyboard: the row's Rename button, the field, Enter.
    await rowAction(page, 'Rename', 'Talk about apples').focus();
    await page.keyboard.press('Enter');
    expect(await field.inputValue()).toBe('Talk about apples');
    expect(await field.evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('Fruit, mostly apples');
    await page.keyboard.press('Enter');
    await sidebar(page).getByRole('link', { name: 'Fruit, mostly apples' }).waitFor();
    expect(await field.count()).toBe(0);
    expect(patches).toHaveLength(1);

    // Escape: nothing sent, the title as it was, the focus back on the row.
    await rowAction(page, 'Rename', 'Talk about pears').click();
    await field.fill('Not this');
    await field.press('Escape');
    await sidebar(page).getByRole('link', { name: 'Talk about pears' }).waitFor();
    expect(await field.count()).toBe(0);
    expect(await sidebar(page).getByRole('link', { name: 'Not this' }).count()).toBe(0);
    // The focus moves once the row is drawn again: wait for it rather than look at once.
    await expect
      .poll(() =>
        sidebar(page)
          .getByRole('link', { name: 'Talk about pears' })
          .evaluate((link) => link === link.ownerDocument.activeElement),
      )
      .toBe(true);
    expect(patches).toHaveLength(1);

    // A title the server refuses: its reason under the field, which stays open.
    await rowAction(page, 'Rename', 'Talk about pears').click();
    await field.fill('x'.repeat(201));
    await field.press('Enter');
    await sidebar(page).getByRole('alert').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'rename-error');
    await field.press('Escape');

    await page.reload();
    await sidebar(page).getByRole('link', { name: 'Fruit, mostly apples' }).waitFor();
    await sidebar(page).getByRole('link', { name: 'Talk about pears' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('deletes only after the undo window: Undo keeps the conversation and opens it again', async () => {
    server = await startServer();
    await seed(server.store, 'keep-me', 'Keep me after all');
    await seed(server.store, 'other', 'Another conversation');
    const { page, pageErrors } = await openPage();
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(request.url());
    });
    await sidebar(page).getByRole('link', { name: 'Keep me after all' }).click();
    await page.getByRole('heading', { name: 'Keep me after all' }).waitFor();

    await rowAction(page, 'Delete', 'Keep me after all').click();
    // Hidden at once, the open conversation closed, and Undo focused for the keyboard.
    await sidebar(page).getByRole('link', { name: 'Keep me after all' }).waitFor({ state: 'detached' });
    await page.getByText('Pick a conversation, or start a new one.').waitFor();
    const undo = sidebar(page).getByRole('status').getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    expect(await undo.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
    await screenshot(page, 'undo');
    await page.keyboard.press('Enter');

    await sidebar(page).getByRole('link', { name: 'Keep me after all' }).waitFor();
    await page.getByRole('heading', { name: 'Keep me after all' }).waitFor();
    expect(openId(page)).toBe('keep-me');
    expect(await sidebar(page).getByRole('status').count()).toBe(0);
    await page.waitForTimeout(PAST_UNDO_WINDOW_MS);
    expect(deletes).toEqual([]);
    expect(await messagesStatus('keep-me')).toBe(200);
    expect(pageErrors).toEqual([]);
  });

  it('sends the delete once the undo window has passed', async () => {
    server = await startServer();
    await seed(server.store, 'doomed', 'Delete me');
    await seed(server.store, 'other', 'Another conversation');
    const { page, pageErrors } = await openPage();
    const deleted = page.waitForRequest((request) => request.method() === 'DELETE', {
      timeout: PAST_UNDO_WINDOW_MS + UI_TIMEOUT_MS,
    });
    const deletedAt = Date.now();
    await rowAction(page, 'Delete', 'Delete me').click();
    await sidebar(page).getByRole('link', { name: 'Delete me' }).waitFor({ state: 'detached' });
    expect(await messagesStatus('doomed')).toBe(200);

    const request = await deleted;
    expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(5_500);
    expect(new URL(request.url()).pathname).toBe('/v1/conversations/doomed');
    expect((await request.response())?.status()).toBe(204);
    expect(await messagesStatus('doomed')).toBe(404);
    await sidebar(page).getByRole('status').waitFor({ state: 'detached' });
    await page.reload();
    await sidebar(page).getByRole('link', { name: 'Another conversation' }).waitFor();
    expect(await sidebar(page).getByRole('link', { name: 'Delete me' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('sends a waiting delete when the page is left', async () => {
    server = await startServer();
    await seed(server.store, 'left', 'Delete me as I leave');
    const { page } = await openPage();
    await rowAction(page, 'Delete', 'Delete me as I leave').click();
    await sidebar(page).getByRole('status').getByRole('button', { name: 'Undo' }).waitFor();
    await page.goto('about:blank');
    await expect.poll(() => messagesStatus('left'), { timeout: UI_TIMEOUT_MS }).toBe(404);
  });

  it('searches titles and message text, says when nothing matches, and shows all again when cleared', async () => {
    server = await startServer();
    await seed(server.store, 'planning', 'Weekly planning', 'Mind the Zebra crossing on Friday.');
    await seed(server.store, 'groceries', 'Groceries for the week', 'Milk and bread.');
    await seed(server.store, 'travel', 'Travel plans', 'Trains to Lyon.');
    const { page, pageErrors } = await openPage();
    const links = sidebar(page).getByRole('link');
    await links.nth(2).waitFor();
    const search = sidebar(page).getByRole('searchbox', { name: 'Search conversations' });
    const sortedTitles = async () => (await shownTitles(page)).sort();

    await sidebar(page).getByRole('link', { name: 'Travel plans' }).click();
    await page.getByRole('heading', { name: 'Travel plans' }).waitFor();
    await search.fill('PLAN'); // titles, any case
    await expect.poll(sortedTitles).toEqual(['Travel plans', 'Weekly planning']);
    await search.fill('zebra'); // a reply's text
    await expect.poll(sortedTitles).toEqual(['Weekly planning']);
    // The open conversation, not among the matches, keeps its title.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Travel plans');
    await screenshot(page, 'search');
    await search.fill('xylophone');
    await sidebar(page).getByText('No conversations match').waitFor();
    expect(await links.count()).toBe(0);
    await search.fill('');
    await expect.poll(sortedTitles).toEqual(['Groceries for the week', 'Travel plans', 'Weekly planning']);
    expect(pageErrors).toEqual([]);
  });
});
