import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  COUNTED_PROMPT_PREFIX,
  countedReply,
  FAIL_ONCE_PROMPT_PREFIX,
  PLAIN_PROMPT_PREFIX,
  plainReply,
  recoveredReply,
} from './support/browser-model-script.js';
import { openPage, shownConversationId, signIn, startConversation } from './support/browser-page.js';
import { PACKAGE_DIR } from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const replies = (page: Page) => log(page).getByRole('article', { name: 'Assistant reply' });
const questions = (page: Page) => log(page).getByRole('article', { name: 'Your message' });
const idle = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'Working' }).waitFor({ state: 'detached' });

describeInChromium('message actions in the web page', ({ browser, startServer }) => {
  it('shows when each message was written and an answer’s model and tokens, and copies a message', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser(), {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await signIn(page, server.baseURL, API_TOKEN);
    const id = await startConversation(page, `${PLAIN_PROMPT_PREFIX}apple`);
    const reply = replies(page).filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}apple`) });
    await reply.waitFor();
    const [question, answer] = await server.store.load(id);
    // The time is the stored one, in the page's time zone, with the full date on hover.
    for (const [article, message] of [
      [questions(page).first(), question],
      [reply, answer],
    ] as const) {
      const time = article.locator('time');
      expect(await time.getAttribute('datetime')).toBe(message?.createdAt);
      expect(await time.textContent()).toMatch(/\d{1,2}.\d{2}/);
      expect(await time.getAttribute('title')).not.toBe('');
    }
    const usage = answer?.usage;
    expect(usage).toBeDefined();
    const facts = await reply.locator('.message-fact').textContent();
    expect(facts).toContain('scripted-model');
    expect(facts).toContain(`${usage?.inputTokens} in`);
    expect(facts).toContain(`${usage?.outputTokens} out`);

    await reply.getByRole('button', { name: 'Copy message' }).click();
    await reply.getByRole('button', { name: 'Copy message' }).filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    expect(copied).toBe(plainReply(`${PLAIN_PROMPT_PREFIX}apple`));
    expect(pageErrors).toEqual([]);
  });

  it('regenerates the last answer and edits a question, each as a branch: the page shows the new path, the log keeps all', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const first = `${COUNTED_PROMPT_PREFIX}regenerate ${Date.now()}`;
    const id = await startConversation(page, first);
    await replies(page)
      .filter({ hasText: countedReply(first, 1) })
      .waitFor();

    await replies(page).last().getByRole('button', { name: 'Regenerate' }).click();
    await replies(page)
      .filter({ hasText: countedReply(first, 2) })
      .waitFor();
    await idle(page);
    expect(await replies(page).count()).toBe(1);
    expect(await questions(page).count()).toBe(1);

    // The question edited: a new answer to it, the old question and answers gone from the page.
    await questions(page).first().getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByLabel('Edited message');
    expect(await editor.inputValue()).toBe(first);
    await editor.fill(`${PLAIN_PROMPT_PREFIX}banana`);
    await editor.press('Enter');
    await replies(page)
      .filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}banana`) })
      .waitFor();
    await idle(page);
    expect(await questions(page).allTextContents()).toEqual([
      expect.stringContaining(`${PLAIN_PROMPT_PREFIX}banana`),
    ]);
    expect(await replies(page).count()).toBe(1);
    await questions(page).first().getByText('edited · earlier version kept').waitFor();

    // After a reload the page shows the same path.
    await page.reload();
    await replies(page)
      .filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}banana`) })
      .waitFor();
    expect(await replies(page).count()).toBe(1);
    await mkdir(join(PACKAGE_DIR, '.test-results'), { recursive: true });
    await page.screenshot({ path: join(PACKAGE_DIR, '.test-results', 'message-actions.png') });

    const stored = await server.store.load(id);
    expect(stored.map((message) => [message.branchFrom, message.content])).toEqual([
      [undefined, first],
      [undefined, countedReply(first, 1)],
      [1, first],
      [undefined, countedReply(first, 2)],
      [3, `${PLAIN_PROMPT_PREFIX}banana`],
      [undefined, plainReply(`${PLAIN_PROMPT_PREFIX}banana`)],
    ]);
    expect(pageErrors).toEqual([]);
  });

  it('picks the model of the next turns from the server’s, remembered across a reload', async () => {
    const server = await startServer({ apiToken: API_TOKEN, otherModelIds: ['scripted-mini'] });
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    await page.getByRole('button', { name: 'New conversation' }).click();
    const picker = page.getByLabel('Model');
    await picker.waitFor();
    expect(await picker.locator('option').allTextContents()).toEqual([
      'scripted-model (default)',
      'scripted-mini',
    ]);
    await picker.selectOption('scripted-mini');
    await page.getByLabel('Message', { exact: true }).fill(`${PLAIN_PROMPT_PREFIX}fig`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const id = shownConversationId(page);
    const reply = replies(page).filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}fig`) });
    await reply.locator('.message-fact').filter({ hasText: 'scripted-mini' }).waitFor();
    await page.reload();
    await reply.waitFor();
    expect(await page.getByLabel('Model').inputValue()).toBe('scripted-mini');
    const stored = await server.store.load(id);
    expect(stored.at(-1)?.providerMetadata?.cairn?.model).toBe('scripted-mini');
    expect(pageErrors).toEqual([]);
  });

  it('retries a failed turn from its error, and leaves Escape to cancel an edit', async () => {
    const server = await startServer();
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const prompt = `${FAIL_ONCE_PROMPT_PREFIX}${Date.now()}`;
    const id = await startConversation(page, prompt);
    const error = log(page).getByRole('article', { name: 'Error' });
    await error.waitFor();
    await idle(page);
    await error.getByRole('button', { name: 'Retry' }).click();
    await replies(page)
      .filter({ hasText: recoveredReply(prompt) })
      .waitFor();
    await error.waitFor({ state: 'detached' });

    await questions(page).first().getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edited message').fill('never sent');
    await page.getByLabel('Edited message').press('Escape');
    await page.getByLabel('Edited message').waitFor({ state: 'detached' });
    expect(await questions(page).first().textContent()).toContain(prompt);
    const stored = await server.store.load(id);
    expect(stored.map((message) => [message.branchFrom, message.errorCode ?? message.content])).toEqual([
      [undefined, prompt],
      [undefined, 'LLM_UNAVAILABLE'],
      [1, prompt],
      [undefined, recoveredReply(prompt)],
    ]);
    expect(pageErrors).toEqual([]);
  });
});
