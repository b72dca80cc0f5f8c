import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// The server's Chromium finder, reused: CHROMIUM_PATH, else the system's, else the npm one.
import {
  chromiumSkipReason,
  findChromium,
  launchChromium,
} from '../../../apps/server/test/support/browser-chromium.ts';
import { COMMANDS, PROMPTS, REPLIES, USAGE } from './support/chat-model-script.ts';
import { APP_DIR, type RunningExample, startExample } from './support/start-example.ts';

const SCREENSHOTS = join(APP_DIR, '.test-results', 'screenshots');
// Generous: Chromium, the server and the mock share two cores with other test runs.
const UI_TIMEOUT_MS = 20_000;

const chromium = await findChromium();
const skipReason = chromiumSkipReason(chromium);

let example: RunningExample | undefined;
let browser: Browser | undefined;
let page: Page | undefined;

beforeAll(async () => {
  if (skipReason !== undefined) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  example = await startExample();
  browser = await launchChromium(chromium);
});

afterEach(async (context) => {
  if (page !== undefined) {
    const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    // A screenshot is for looking at afterwards: one that fails must not fail the test.
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }).catch(() => {});
    await page.close();
  }
  page = undefined;
});

afterAll(async () => {
  await browser?.close();
  await example?.close();
});

function running(): RunningExample {
  if (example === undefined) throw new Error('the example did not start');
  return example;
}

/** A fresh page on a new conversation (the app puts a new id in the URL). */
async function openChat(): Promise<{ page: Page; conversationId: string }> {
  if (browser === undefined) throw new Error('Chromium did not start');
  page = await browser.newPage();
  await page.goto(running().appURL);
  await page.getByLabel('Message').waitFor({ timeout: UI_TIMEOUT_MS });
  const conversationId = new URL(page.url()).searchParams.get('conversation');
  if (conversationId === null) throw new Error(`no conversation id in ${page.url()}`);
  return { page, conversationId };
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

async function textOf(locator: Locator): Promise<string> {
  return (await locator.count()) === 0 ? '' : ((await locator.textContent()) ?? '');
}

function lastAnswer(page: Page): Locator {
  return page.getByTestId('message-assistant').last();
}

/** Waits until the send button is back: the turn ended (finished, stopped or failed). */
async function waitUntilReady(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: UI_TIMEOUT_MS });
}

/** The conversation as cairn-server stored it. */
async function storedMessages(conversationId: string): Promise<Array<Record<string, unknown>>> {
  const response = await running().server.request(`/v1/conversations/${conversationId}/messages`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: Array<Record<string, unknown>> }).messages;
}

/** What a command of the script wrote into the server's workspace; undefined while it has not run. */
async function workspaceFile(name: string): Promise<string | undefined> {
  return readFile(join(running().workspace, name), 'utf8').catch(() => undefined);
}

/** The answer's tool call, once it waits for approval (the stream ended on it). */
async function waitingCall(page: Page): Promise<Locator> {
  const call = lastAnswer(page).getByTestId('tool-call');
  await expect
    .poll(async () => ((await call.count()) === 0 ? null : call.getAttribute('data-state')), {
      timeout: UI_TIMEOUT_MS,
    })
    .toBe('approval-requested');
  return call;
}

/** The tool results the mock model was sent, as text. */
function toolResultsSentToModel(): string[] {
  return running().mock.requests.flatMap((request) => {
    const body = request.body as { messages?: Array<{ role: string; content?: unknown }> } | undefined;
    return (body?.messages ?? [])
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content));
  });
}

/** The conversation's approval requests, as the server's own API lists them. */
async function storedApprovals(conversationId: string): Promise<Array<Record<string, unknown>>> {
  const response = await running().server.request(`/v1/conversations/${conversationId}/approvals`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { approvals: Array<Record<string, unknown>> }).approvals;
}

describe.skipIf(skipReason !== undefined)(
  `the useChat example in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    it('streams an answer, with its reasoning collapsed and the model and tokens from its metadata', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.hello);
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.hello);
      await waitUntilReady(page);
      expect(await page.getByTestId('message-user').textContent()).toBe(PROMPTS.hello);
      const reasoning = lastAnswer(page).getByTestId('reasoning');
      expect(await reasoning.getAttribute('open')).toBeNull();
      expect(await reasoning.locator('p').isVisible()).toBe(false);
      await reasoning.locator('summary').click();
      expect(await reasoning.locator('p').isVisible()).toBe(true);
      expect(await reasoning.locator('p').textContent()).toBe('The user greets me.');
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('message-meta')), { timeout: UI_TIMEOUT_MS })
        .toContain('mock-model');
      expect(await lastAnswer(page).getByTestId('message-meta').textContent()).toContain(
        `${USAGE.inputTokens} in / ${USAGE.outputTokens} out tokens`,
      );
      const stored = await storedMessages(conversationId);
      expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(stored[1]?.content).toBe(REPLIES.hello);

      // The next message goes alone: the server has the rest.
      const request = page.waitForRequest(
        (sent) => sent.url().endsWith('/v1/chat') && sent.method() === 'POST',
      );
      await send(page, PROMPTS.hello);
      const body = (await request).postDataJSON() as { id: string; trigger: string; messages: unknown[] };
      expect(body).toMatchObject({ id: conversationId, trigger: 'submit-message' });
      expect(body.messages).toEqual([expect.objectContaining({ role: 'user' })]);
      await expect
        .poll(() => page.getByTestId('message-assistant').count(), { timeout: UI_TIMEOUT_MS })
        .toBe(2);
      await waitUntilReady(page);
      expect((await storedMessages(conversationId)).map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
    });

    it('shows a tool call with its input and output, then the answer', async () => {
      const { page } = await openChat();
      await send(page, PROMPTS.tool);
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.tool);
      const call = lastAnswer(page).getByTestId('tool-call');
      expect(await call.getAttribute('data-tool-name')).toBe('read_file');
      expect(await call.getAttribute('data-state')).toBe('output-available');
      expect(await call.textContent()).toContain('notes.txt');
      expect(await call.getByTestId('tool-output').textContent()).toContain('Buy milk');
    });

    it('Stop ends the turn: the page stops streaming and the server stores the answer as interrupted', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.stop);
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toContain('Chapter 2.');
      await page.getByRole('button', { name: 'Stop' }).click();
      await waitUntilReady(page);
      // The answer as far as it came; the server's note of the abort (`partType: 'error'`) follows it.
      const storedAnswer = async () =>
        (await storedMessages(conversationId)).findLast(
          (message) => message.role === 'assistant' && message.partType !== 'error',
        );
      await expect.poll(storedAnswer, { timeout: UI_TIMEOUT_MS }).toMatchObject({ interrupted: true });
      // A start of the reply, not all of it.
      const kept = String((await storedAnswer())?.content);
      expect(kept).toContain('Chapter 2.');
      expect(REPLIES.stop.startsWith(kept)).toBe(true);
      expect(kept.length).toBeLessThan(REPLIES.stop.length);
      expect(await textOf(lastAnswer(page).getByTestId('text'))).not.toBe(REPLIES.stop);
    });

    it('a reload mid-answer resumes the running answer and shows the same final text, once', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.reload);
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toContain('3 4');
      // The answer streams for seconds more: the reloaded page resumes it rather than finding it stored.
      const resumed = page.waitForResponse(
        (response) => response.url().endsWith(`/v1/chat/${conversationId}/stream`),
        { timeout: UI_TIMEOUT_MS },
      );
      await page.reload();
      expect(new URL(page.url()).searchParams.get('conversation')).toBe(conversationId);
      expect((await resumed).status()).toBe(200);
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.reload);
      await waitUntilReady(page);
      expect(await page.getByTestId('message-user').allTextContents()).toEqual([PROMPTS.reload]);
      expect(await page.getByTestId('message-assistant').count()).toBe(1);
      const stored = await storedMessages(conversationId);
      expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: REPLIES.reload });
    });

    it('shows an error with a Retry that asks again and gets the answer', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.fail);
      const error = page.getByTestId('chat-error');
      await error.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await error.textContent()).toContain('refused once');
      await page.screenshot({ path: join(SCREENSHOTS, 'error-before-retry.png') });
      await error.getByRole('button', { name: 'Retry' }).click();
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.recovered);
      expect(await page.getByTestId('chat-error').count()).toBe(0);
      expect(await page.getByTestId('message-user').allTextContents()).toEqual([PROMPTS.fail]);
      // Retry is a `regenerate-message`: the server stores the question again (its log is append-only,
      // the failed turn stays in it) and answers it.
      const stored = await storedMessages(conversationId);
      expect(stored.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
        PROMPTS.fail,
        PROMPTS.fail,
      ]);
      expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: REPLIES.recovered });
    });

    it('asks before running a command: Approve runs it once, shows its output, then the answer', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.build);
      const call = await waitingCall(page);
      expect(await call.getAttribute('data-tool-name')).toBe('run_command');
      expect(await call.textContent()).toContain(COMMANDS.build);
      expect(await call.locator('.tool-status').textContent()).toBe('needs approval');
      await page.screenshot({ path: join(SCREENSHOTS, 'approval-requested.png') });
      expect(await workspaceFile('build.log')).toBeUndefined();

      await call.getByRole('button', { name: 'Approve' }).click();
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.build);
      await waitUntilReady(page);
      // The same answer goes on: the call with the command's output, then the text.
      expect(await page.getByTestId('message-assistant').count()).toBe(1);
      expect(await call.getAttribute('data-state')).toBe('output-available');
      expect(await call.getByTestId('tool-output').textContent()).toContain('built');
      expect(await call.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      expect(await workspaceFile('build.log')).toBe('built\n');
      expect(await storedApprovals(conversationId)).toEqual([
        expect.objectContaining({
          status: 'decided',
          decision: expect.objectContaining({ outcome: 'approve' }),
        }),
      ]);
    });

    it('a reload while a call waits shows Approve and Deny again; Deny with a reason keeps it from running', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.deploy);
      await waitingCall(page);
      await page.reload();
      expect(new URL(page.url()).searchParams.get('conversation')).toBe(conversationId);
      // From the server's store this time: the waiting call, its buttons and all.
      const call = await waitingCall(page);
      expect(await call.textContent()).toContain(COMMANDS.deploy);
      await call.getByLabel('Reason (optional)').fill('Not on a Friday');
      await call.getByRole('button', { name: 'Deny' }).click();
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.deploy);
      await waitUntilReady(page);
      expect(await page.getByTestId('message-assistant').count()).toBe(1);
      expect(await call.getAttribute('data-state')).toBe('output-denied');
      expect(await call.locator('.tool-status').textContent()).toBe('denied');
      expect(await call.getByTestId('tool-denial').textContent()).toBe('Denied: Not on a Friday');
      expect(await workspaceFile('deploy.log')).toBeUndefined();
      // The model read the reason with the denial.
      expect(toolResultsSentToModel()).toContainEqual(expect.stringContaining('Not on a Friday'));
      expect(await storedApprovals(conversationId)).toEqual([
        expect.objectContaining({
          status: 'decided',
          decision: expect.objectContaining({ outcome: 'deny', reason: 'Not on a Friday' }),
        }),
      ]);
    });

    it('a reload while an approved command’s answer streams resumes it: the output and the answer, run once', async () => {
      const { page, conversationId } = await openChat();
      await send(page, PROMPTS.check);
      const call = await waitingCall(page);
      await call.getByRole('button', { name: 'Approve' }).click();
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toContain('Check 3 passed.');
      // The turn going on after the decision is what resumes: the page keeps the call it continues.
      const resumed = page.waitForResponse(
        (response) => response.url().endsWith(`/v1/chat/${conversationId}/stream`),
        { timeout: UI_TIMEOUT_MS },
      );
      await page.reload();
      expect((await resumed).status()).toBe(200);
      await expect
        .poll(() => textOf(lastAnswer(page).getByTestId('text')), { timeout: UI_TIMEOUT_MS })
        .toBe(REPLIES.check);
      await waitUntilReady(page);
      expect(await page.getByTestId('chat-error').count()).toBe(0);
      expect(await page.getByTestId('message-assistant').count()).toBe(1);
      expect(await call.getAttribute('data-state')).toBe('output-available');
      expect(await call.getByTestId('tool-output').textContent()).toContain('checked');
      expect(await workspaceFile('check.log')).toBe('checked\n');
    });
  },
);
