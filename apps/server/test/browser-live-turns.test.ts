import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  BROWSER_SCRIPT,
  LIVE_PROMPT,
  LIVE_REPLY,
  PLAIN_PROMPT_PREFIX,
  plainReply,
} from './support/browser-model-script.js';
import { openPage, signIn, startConversation } from './support/browser-page.js';
import { PACKAGE_DIR } from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const SCREENSHOTS = join(PACKAGE_DIR, '.test-results');

/** The browser globals used by functions run in the page (this TypeScript project has no DOM types). */
interface PageGlobals {
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

/** Waits until the streaming reply shows part of `full`, not all of it: the turn is mid-answer. */
const midAnswer = (page: Page, full: string) =>
  page.waitForFunction(
    (whole) => {
      const { document } = globalThis as unknown as PageGlobals;
      const streaming = document.querySelector('[aria-label="Streaming reply"]')?.textContent ?? '';
      return streaming.length > 0 && streaming.length < whole.length;
    },
    full,
    { polling: 'raf' },
  );

const composer = (page: Page) => ({
  message: page.getByLabel('Message', { exact: true }),
  send: page.getByRole('button', { name: 'Send', exact: true }),
  queue: page.getByRole('button', { name: 'Queue', exact: true }),
  abort: page.getByRole('button', { name: 'Abort' }),
});

describeInChromium('a running turn in the web page', ({ browser, startServer }) => {
  it('shows the running turn live again after a reload mid-stream, with Abort usable and Send queueing', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    await startConversation(page, LIVE_PROMPT);
    await midAnswer(page, LIVE_REPLY);

    await page.reload();
    // The answer so far, then the rest as it comes: a turn this page no longer sends.
    await midAnswer(page, LIVE_REPLY);
    await page.getByRole('status').filter({ hasText: 'Working' }).waitFor();
    expect(await composer(page).abort.isEnabled()).toBe(true);
    expect(await composer(page).queue.count()).toBe(1);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'live-turn-after-reload.png') });

    await page.getByRole('article', { name: 'Assistant reply' }).filter({ hasText: LIVE_REPLY }).waitFor();
    await page.getByRole('article', { name: 'Streaming reply' }).waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Working' }).waitFor({ state: 'detached' });
    expect(await composer(page).abort.isEnabled()).toBe(false);
    // Shown once: the replayed start of the answer did not double it.
    expect(await page.getByRole('article', { name: 'Assistant reply' }).count()).toBe(1);
    expect(await page.getByRole('article', { name: 'Your message' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('shows one conversation live in two tabs: either sees the other’s turn and either can abort it', async () => {
    const server = await startServer();
    const first = await openPage(browser());
    await signIn(first.page, server.baseURL, API_TOKEN);
    const id = await startConversation(first.page, LIVE_PROMPT);
    await midAnswer(first.page, LIVE_REPLY);

    // A second tab opened on the conversation mid-turn follows it.
    const second = await openPage(browser());
    await signIn(second.page, server.baseURL, API_TOKEN, `/#${encodeURIComponent(id)}`);
    await midAnswer(second.page, LIVE_REPLY);
    await second.page.getByRole('status').filter({ hasText: 'Working' }).waitFor();
    for (const { page } of [first, second]) {
      await page.getByRole('article', { name: 'Assistant reply' }).filter({ hasText: LIVE_REPLY }).waitFor();
    }

    // A turn started in the second tab shows in the first, which aborts it.
    await composer(second.page).message.fill(BROWSER_SCRIPT.slowPrompt);
    await composer(second.page).send.click();
    await first.page
      .getByRole('article', { name: 'Your message' })
      .filter({ hasText: BROWSER_SCRIPT.slowPrompt })
      .waitFor();
    await first.page.getByRole('status').filter({ hasText: 'Working' }).waitFor();
    await composer(first.page).abort.click();
    for (const { page } of [first, second]) {
      await page.getByRole('article', { name: 'Error' }).filter({ hasText: 'LLM_ABORTED' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Working' }).waitFor({ state: 'detached' });
    }
    const stored = await server.store.load(id);
    expect(stored.map((message) => message.errorCode ?? message.content)).toEqual([
      LIVE_PROMPT,
      LIVE_REPLY,
      BROWSER_SCRIPT.slowPrompt,
      'LLM_ABORTED',
    ]);
    expect([...first.pageErrors, ...second.pageErrors]).toEqual([]);
  });

  it('queues a message sent while a turn runs: Abort ends only the running turn, then the queued one is sent', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const id = await startConversation(page, BROWSER_SCRIPT.slowPrompt);
    await page.getByRole('status').filter({ hasText: 'Working' }).waitFor();
    const { message, queue, abort } = composer(page);

    // Queued, then taken back to edit: nothing sent, the text in the box again.
    await message.fill(`${PLAIN_PROMPT_PREFIX}first draft`);
    await queue.click();
    const queued = page.getByRole('status', { name: 'Queued message' });
    await queued.filter({ hasText: 'first draft' }).waitFor();
    expect(await message.inputValue()).toBe('');
    await queued.getByRole('button', { name: 'Edit' }).click();
    await queued.waitFor({ state: 'detached' });
    await expect.poll(() => message.inputValue()).toBe(`${PLAIN_PROMPT_PREFIX}first draft`);

    await message.fill(`${PLAIN_PROMPT_PREFIX}after the abort`);
    await queue.click();
    await queued.filter({ hasText: 'after the abort' }).waitFor();
    // One message waits at most: the next stays in the box.
    await message.fill('not yet');
    expect(await queue.isDisabled()).toBe(true);
    await abort.click();
    await page.getByRole('article', { name: 'Error' }).filter({ hasText: 'LLM_ABORTED' }).waitFor();
    const reply = plainReply(`${PLAIN_PROMPT_PREFIX}after the abort`);
    await page.getByRole('article', { name: 'Assistant reply' }).filter({ hasText: reply }).waitFor();
    await queued.waitFor({ state: 'detached' });
    expect(await message.inputValue()).toBe('not yet');
    const stored = await server.store.load(id);
    expect(stored.map((stored) => stored.errorCode ?? stored.content)).toEqual([
      BROWSER_SCRIPT.slowPrompt,
      'LLM_ABORTED',
      `${PLAIN_PROMPT_PREFIX}after the abort`,
      reply,
    ]);
    expect(pageErrors).toEqual([]);
  });

  it('keeps what was typed and a queued message across a reload: back in the send box, nothing sent', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const id = await startConversation(page, BROWSER_SCRIPT.slowPrompt);
    await page.getByRole('status').filter({ hasText: 'Working' }).waitFor();
    const { message, queue } = composer(page);
    await message.fill(`${PLAIN_PROMPT_PREFIX}queued before the reload`);
    await queue.click();
    await page.getByRole('status', { name: 'Queued message' }).waitFor();
    await message.fill('typed, not sent');

    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Working' }).waitFor();
    await expect
      .poll(() => composer(page).message.inputValue())
      .toBe(`${PLAIN_PROMPT_PREFIX}queued before the reload\ntyped, not sent`);
    expect(await page.getByRole('status', { name: 'Queued message' }).count()).toBe(0);
    await composer(page).abort.click();
    await page.getByRole('article', { name: 'Error' }).filter({ hasText: 'LLM_ABORTED' }).waitFor();
    const stored = await server.store.load(id);
    expect(stored.map((stored) => stored.errorCode ?? stored.content)).toEqual([
      BROWSER_SCRIPT.slowPrompt,
      'LLM_ABORTED',
    ]);
    expect(pageErrors).toEqual([]);
  });
});
