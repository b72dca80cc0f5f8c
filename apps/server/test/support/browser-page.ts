import type { Browser, Page } from 'playwright-core';

// Generous: Chromium shares two cores with other test runs.
export const UI_TIMEOUT_MS = 15_000;

/** A fresh tab (its own context and sessionStorage) that records every uncaught page error. */
export async function openPage(
  browser: Browser,
  {
    viewport = { width: 1280, height: 800 },
    permissions = [],
    bypassCSP = false,
  }: {
    viewport?: { width: number; height: number };
    permissions?: string[];
    /** Without the page's Content-Security-Policy: to show the page itself keeps hostile content inert. */
    bypassCSP?: boolean;
  } = {},
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport, permissions, bypassCSP });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}

/** Opens the page at `path` (e.g. `/#<conversation id>`) and gives it the API token it asks for. */
export async function signIn(page: Page, baseURL: string, token: string, path = '/'): Promise<void> {
  await page.goto(`${baseURL}${path}`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByRole('button', { name: 'New conversation' }).waitFor();
}

/** The id of the conversation the page shows (its address's hash). */
export const shownConversationId = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));

/** Starts a conversation with `text` as its first message; its id. */
export async function startConversation(page: Page, text: string): Promise<string> {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByRole('heading', { name: 'New conversation' }).waitFor();
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  return shownConversationId(page);
}
