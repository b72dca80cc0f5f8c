import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  attachmentsReply,
  BROWSER_SCRIPT,
  LIVE_PROMPT,
  LIVE_REPLY,
  PLAIN_PROMPT_PREFIX,
  plainReply,
} from './support/browser-model-script.js';
import { openPage, shownConversationId, signIn } from './support/browser-page.js';
import { PACKAGE_DIR } from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SCREENSHOTS = join(PACKAGE_DIR, '.test-results');
const SIDEBAR = '#conversation-sidebar';
// A second model: the send box shows its model picker, which has to fit a phone too.
const OTHER_MODELS = ['scripted-model-large'];

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const replies = (page: Page) => log(page).getByRole('article', { name: 'Assistant reply' });
const working = (page: Page) => page.getByRole('status').filter({ hasText: 'Working' });
const idle = (page: Page) => working(page).waitFor({ state: 'detached' });
// By CSS, not by role: while the drawer is open the pane holding it is inert, out of the accessibility tree.
const menuButton = (page: Page) => page.locator('.pane-tools button[aria-controls]');
const drawerShown = (page: Page, shown: boolean) =>
  page.locator(`.pane-tools button[aria-expanded="${shown}"]`).waitFor({ state: 'attached' });
// Evaluated in the page (the test's own TypeScript has no DOM types).
const focusIn = (page: Page, selector: string) =>
  page.waitForFunction((css) => {
    const doc = (
      globalThis as unknown as { document: { querySelector(s: string): unknown; activeElement: unknown } }
    ).document;
    const element = doc.querySelector(css) as { contains(node: unknown): boolean } | null;
    return element?.contains(doc.activeElement) === true;
  }, selector);
const focusedLabel = (page: Page) =>
  page.evaluate(
    () =>
      (
        globalThis as unknown as {
          document: { activeElement: { getAttribute(name: string): string | null } | null };
        }
      ).document.activeElement?.getAttribute('aria-label') ?? null,
  );
const pageWidths = (page: Page) =>
  page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as {
      document: { documentElement: { scrollWidth: number } };
      innerWidth: number;
    };
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth };
  });

/** Signs in where the conversation list may be hidden (a phone): the menu button shows the page is ready. */
async function signInAnywhere(page: Page, baseURL: string): Promise<void> {
  await page.goto(baseURL);
  await page.getByLabel('API token').fill(API_TOKEN);
  await page.getByRole('button', { name: 'Use token' }).click();
  await menuButton(page).waitFor();
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Starts a conversation with a plain prompt, waits for its reply, and returns its id. */
async function plainConversation(page: Page, word: string): Promise<string> {
  await page.getByRole('heading', { name: 'New conversation' }).waitFor();
  await send(page, `${PLAIN_PROMPT_PREFIX}${word}`);
  await replies(page)
    .filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}${word}`) })
    .waitFor();
  await idle(page);
  return shownConversationId(page);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `layout-${name}.png`) });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical violations on the page as it is. axe goes in with `page.evaluate`,
 * which DevTools runs outside the page's CSP: the page keeps its real `script-src 'self'` (a context
 * with `bypassCSP` would test a page the server never serves), and no inline <script> is needed.
 */
async function seriousViolations(page: Page, state: string): Promise<string[]> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations)',
  )) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${state}: ${violation.id} (${violation.impact}) ${violation.help}\n${violation.nodes
          .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
          .join('\n')}`,
    );
}

/** Checks a state in the light and the dark theme, with a screenshot of each. */
async function checkState(page: Page, state: string, found: string[]): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await seriousViolations(page, `${state} (${colorScheme})`)));
    await screenshot(page, `${state}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describeInChromium('layout, shortcuts and accessibility of the web page', ({ browser, startServer }) => {
  it('on a phone, the conversations are a drawer: opened by the menu button, closed by Escape, a choice or the backdrop; nothing scrolls sideways', async () => {
    const server = await startServer({ apiToken: API_TOKEN, otherModelIds: OTHER_MODELS });
    const { page, pageErrors } = await openPage(browser(), { viewport: PHONE });
    await signInAnywhere(page, server.baseURL);
    const menu = menuButton(page);
    expect(await menu.getAttribute('aria-label')).toBe('Conversations');
    expect(await menu.getAttribute('aria-controls')).toBe(SIDEBAR.slice(1));
    await drawerShown(page, false);
    await page
      .locator(SIDEBAR)
      .getByRole('button', { name: 'New conversation' })
      .waitFor({ state: 'hidden' });
    // The chat pane has the whole width.
    expect((await page.locator('main.chat-pane').boundingBox())?.width).toBe(PHONE.width);

    // Opened: the focus goes in; Escape closes it and the focus comes back to the button.
    await menu.click();
    await drawerShown(page, true);
    await focusIn(page, SIDEBAR);
    await page.keyboard.press('Escape');
    await drawerShown(page, false);
    await focusIn(page, '.pane-tools button[aria-controls]');

    // A conversation with tool cards and a long reply: still no sideways scrolling.
    await menu.click();
    await page.locator(SIDEBAR).getByRole('button', { name: 'New conversation' }).click();
    await drawerShown(page, false);
    await page.getByRole('heading', { name: 'New conversation' }).waitFor();
    await send(page, BROWSER_SCRIPT.editPrompt);
    await replies(page).filter({ hasText: BROWSER_SCRIPT.finalReply }).waitFor();
    await idle(page);
    const first = shownConversationId(page);
    await log(page).locator('.tool-card summary').first().click();
    const widths = await pageWidths(page);
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.innerWidth);
    await screenshot(page, 'phone-conversation');

    await menu.click();
    await page.locator(SIDEBAR).getByRole('button', { name: 'New conversation' }).click();
    await drawerShown(page, false);
    const second = await plainConversation(page, 'phone');

    // The backdrop closes it.
    await menu.click();
    await drawerShown(page, true);
    await page.locator(`${SIDEBAR} a[href="#${encodeURIComponent(first)}"]`).waitFor();
    await screenshot(page, 'phone-drawer');
    await page.locator('.drawer-backdrop').click({ position: { x: PHONE.width - 20, y: PHONE.height / 2 } });
    await drawerShown(page, false);
    await focusIn(page, '.pane-tools button[aria-controls]');

    // Choosing a conversation closes it; the chosen one shows.
    await menu.click();
    await drawerShown(page, true);
    await page.locator(`${SIDEBAR} a[href="#${encodeURIComponent(first)}"]`).click();
    await drawerShown(page, false);
    await replies(page).filter({ hasText: BROWSER_SCRIPT.finalReply }).waitFor();
    expect(shownConversationId(page)).toBe(first);
    expect(second).not.toBe(first);
    await focusIn(page, '.pane-tools button[aria-controls]');
    const after = await pageWidths(page);
    expect(after.scrollWidth).toBeLessThanOrEqual(after.innerWidth);
    expect(pageErrors).toEqual([]);
  });

  it('on a wide screen, the sidebar collapses and expands, and the page remembers it', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser(), { viewport: DESKTOP });
    await signIn(page, server.baseURL, API_TOKEN);
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    await drawerShown(page, true);
    await menuButton(page).click();
    await drawerShown(page, false);
    await sidebar.waitFor({ state: 'hidden' });
    expect((await page.locator('main.chat-pane').boundingBox())?.width).toBe(DESKTOP.width);
    await screenshot(page, 'wide-collapsed');

    await page.reload();
    await menuButton(page).waitFor();
    await drawerShown(page, false);
    expect(await sidebar.isVisible()).toBe(false);

    await menuButton(page).click();
    await sidebar.waitFor();
    await page.reload();
    await sidebar.waitFor();
    await drawerShown(page, true);
    expect(pageErrors).toEqual([]);
  });

  it('has keyboard shortcuts, listed in a dialog (? or its button); Escape closes but never aborts a turn', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser(), { viewport: DESKTOP });
    await signIn(page, server.baseURL, API_TOKEN);
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });

    await page.keyboard.press('?');
    await dialog.waitFor();
    await dialog.getByText('New conversation').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await focusedLabel(page)).toBe('Keyboard shortcuts');

    // Ctrl+Shift+O starts a conversation; `/` goes to its message box, where `?` is only typed.
    await page.keyboard.press('Control+Shift+O');
    await page.getByRole('heading', { name: 'New conversation' }).waitFor();
    // The box takes `/` once the conversation has loaded (it is disabled until then).
    await page.locator('.composer textarea:not([disabled])').waitFor();
    await page.getByRole('heading', { name: 'New conversation' }).click();
    await page.keyboard.press('/');
    await focusIn(page, '.composer');
    await page.keyboard.type('?');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('?');
    expect(await dialog.isVisible()).toBe(false);
    await page.getByLabel('Message', { exact: true }).fill('');
    const first = await plainConversation(page, 'first');
    await page.keyboard.press('Control+Shift+O');
    await page.waitForURL((url) => url.hash !== '' && decodeURIComponent(url.hash.slice(1)) !== first);
    const second = await plainConversation(page, 'second');

    // Alt+↓ and Alt+↑ walk the list (newest first), even from the message box.
    // Each step waits for the list to mark the conversation open (the page has caught up with the address).
    const openInList = (id: string) =>
      page.locator(`${SIDEBAR} a[href="#${encodeURIComponent(id)}"][aria-current="page"]`).waitFor();
    await openInList(second);
    // Listed by the server, not only the page's draft row of the new conversation (gone once another is open).
    await page
      .locator(`${SIDEBAR} a[href="#${encodeURIComponent(second)}"]`)
      .filter({ hasText: /\d+ messages?/ })
      .waitFor();
    await page.getByLabel('Message', { exact: true }).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await openInList(first);
    expect(shownConversationId(page)).toBe(first);
    await page.keyboard.press('Alt+ArrowUp');
    await openInList(second);
    expect(shownConversationId(page)).toBe(second);

    // Ctrl+K searches, even from the message box.
    await replies(page).first().waitFor();
    await page.getByLabel('Message', { exact: true }).focus();
    await page.keyboard.press('Control+k');
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as {
            document: { activeElement: { getAttribute(name: string): string | null } | null };
          }
        ).document.activeElement?.getAttribute('aria-label') === 'Search conversations',
    );

    // Escape while a turn runs leaves it running: the whole reply comes.
    await send(page, LIVE_PROMPT);
    await working(page).waitFor();
    await page.getByLabel('Message', { exact: true }).press('Escape');
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('Escape');
    await replies(page).filter({ hasText: LIVE_REPLY }).waitFor();
    await idle(page);
    const stored = await server.store.load(second);
    expect(stored.at(-1)?.content).toBe(LIVE_REPLY);
    expect(pageErrors).toEqual([]);
  });

  it('has no serious or critical axe violations in its main states, light and dark, wide and narrow', async () => {
    const server = await startServer({ apiToken: API_TOKEN, otherModelIds: OTHER_MODELS });
    const { page, pageErrors } = await openPage(browser(), { viewport: DESKTOP });
    const found: string[] = [];

    await page.goto(server.baseURL);
    await page.getByLabel('API token').waitFor();
    await checkState(page, 'token-prompt', found);
    await page.getByLabel('API token').fill(API_TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('button', { name: 'New conversation' }).waitFor();
    await checkState(page, 'empty', found);

    // A reply after tool executions, one card open (its diff).
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('heading', { name: 'New conversation' }).waitFor();
    await send(page, BROWSER_SCRIPT.editPrompt);
    await replies(page).filter({ hasText: BROWSER_SCRIPT.finalReply }).waitFor();
    await idle(page);
    await log(page).locator('.tool-card summary').first().click();
    await checkState(page, 'conversation', found);

    // A message with a file: its link in the message, the reply naming it.
    await page.getByLabel('Attach files').setInputFiles({
      name: 'report.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('quarterly figures'),
    });
    await send(page, 'Here is the report');
    await replies(page)
      .filter({ hasText: attachmentsReply(['report.txt']) })
      .waitFor();
    await log(page).locator('.attachment-file').filter({ hasText: 'report.txt' }).waitFor();
    await checkState(page, 'attachment', found);

    await send(page, LIVE_PROMPT);
    await working(page).waitFor();
    await checkState(page, 'running-turn', found);
    await idle(page);

    // The list searched, one title being renamed.
    await page.getByLabel('Search conversations').fill('greeting');
    await page
      .getByRole('button', { name: /^Rename/ })
      .first()
      .click();
    await page.getByLabel('Conversation title').waitFor();
    await checkState(page, 'search-and-rename', found);
    await page.getByLabel('Conversation title').press('Escape');
    await page.getByLabel('Search conversations').fill('');

    await page.keyboard.press('Control+Shift+O');
    await page.getByRole('heading', { name: 'New conversation' }).waitFor();
    await page.getByRole('heading', { name: 'New conversation' }).click();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await checkState(page, 'shortcuts-dialog', found);
    await page.keyboard.press('Escape');

    // The phone: the drawer open, once it has slid in.
    await page.setViewportSize(PHONE);
    await menuButton(page).click();
    await drawerShown(page, true);
    await page.waitForFunction(
      (css) =>
        (
          globalThis as unknown as {
            getComputedStyle(element: unknown): { transform: string };
            document: { querySelector(s: string): unknown };
          }
        ).getComputedStyle(
          (
            globalThis as unknown as { document: { querySelector(s: string): unknown } }
          ).document.querySelector(css),
        ).transform === 'none',
      SIDEBAR,
    );
    await checkState(page, 'phone-drawer', found);
    await page.keyboard.press('Escape');
    await drawerShown(page, false);
    // Slid out (hidden once its transition ends), so axe and the screenshot see the chat alone.
    await page.locator(SIDEBAR).waitFor({ state: 'hidden' });
    await checkState(page, 'phone-chat', found);

    expect(found, found.join('\n')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
