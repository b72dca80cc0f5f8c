import type { Browser, Page } from 'playwright-core';

// Generous: Chromium shares two cores with other test runs.
export const UI_TIMEOUT_MS = 15_000;

/** A fresh tab (its own context and sessionStorage) that records every uncaught page error. */
export async function openPage(
  browser: Browser,
  {
    viewport = { width: 1280, height: 800 },
    permissions = [],
  }: { viewport?: { width: number; height: number }; permissions?: string[] } = {},
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport, permissions });
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
