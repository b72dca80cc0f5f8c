import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ConversationMessage } from '@cairn/core';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  APPROVAL_PROMPT_PREFIX,
  approvalAnswer,
  PLAIN_PROMPT_PREFIX,
  plainReply,
} from './support/browser-model-script.js';
import { openPage, signIn, startConversation } from './support/browser-page.js';
import { type BrowserTestServer, PACKAGE_DIR } from './support/browser-server.js';
import { API_TOKEN, describeInChromium } from './support/browser-suite.js';

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const replies = (page: Page) => log(page).getByRole('article', { name: 'Assistant reply' });
const waitingCard = (page: Page) => log(page).getByRole('article', { name: 'Approval for run_command' });
const outcome = (page: Page, text: string | RegExp) =>
  log(page).locator('.approval-outcome').filter({ hasText: text });
const hint = (page: Page) => page.getByRole('status').filter({ hasText: 'waits for your approval' });
const idle = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'Working' }).waitFor({ state: 'detached' });
/** The browser globals used by functions run in the page (this TypeScript project has no DOM types). */
interface FocusGlobals {
  document: {
    activeElement: { textContent: string | null; labels?: { textContent: string | null }[] } | null;
  };
}

// Waits for the focus on the button saying `text`, or the field whose label starts with it (focus moves after a render).
const focusOn = (page: Page, text: string) =>
  page.waitForFunction((expected) => {
    const focused = (globalThis as unknown as FocusGlobals).document.activeElement;
    const label = focused?.labels?.[0]?.textContent ?? focused?.textContent ?? '';
    return label.startsWith(expected);
  }, text);

const SERVER_OPTIONS = { apiToken: API_TOKEN, runCommandNeedsApproval: true };

/** The stored records of the conversation's approvals, and the results its calls got. */
async function ledger(server: BrowserTestServer, id: string) {
  const stored: ConversationMessage[] = await server.store.load(id);
  return {
    decisions: stored.flatMap((message) => (message.approval?.kind === 'decision' ? [message.approval] : [])),
    results: stored.filter((message) => message.role === 'tool'),
  };
}

const readWorkspaceFile = (server: BrowserTestServer, name: string) =>
  readFile(join(server.workspace, name), 'utf8').catch(() => undefined);

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const SCREENSHOTS = join(PACKAGE_DIR, '.test-results');

// axe's serious and critical violations inside the waiting card, in the light and the dark theme (with a screenshot of each).
async function cardViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  await mkdir(SCREENSHOTS, { recursive: true });
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = (await page.evaluate(
      'axe.run(".tool-card.approval", { resultTypes: ["violations"] }).then((result) => result.violations)',
    )) as { id: string; impact: string | null; nodes: { target: string[] }[] }[];
    for (const violation of violations) {
      if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
      found.push(
        `${colorScheme}: ${violation.id} at ${violation.nodes.map((node) => node.target).join(', ')}`,
      );
    }
    await page.screenshot({ path: join(SCREENSHOTS, `approval-waiting-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

describeInChromium('tool calls waiting for approval in the web page', ({ browser, startServer }) => {
  it('shows the waiting call, runs it once on Allow; a second, stale tab hears who decided first', async () => {
    const server = await startServer(SERVER_OPTIONS);
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const command = 'echo ran >> ran.txt && echo allowed-output';
    const id = await startConversation(page, `${APPROVAL_PROMPT_PREFIX}${command}`);
    const card = waitingCard(page);
    await card.getByText('Waiting for your approval').waitFor();
    await card.getByRole('figure', { name: 'Command' }).getByText(command).waitFor();
    await card.getByText(/Asked of caller:/).waitFor();
    await hint(page).waitFor();
    await idle(page);
    expect(await cardViolations(page)).toEqual([]);

    // A second tab whose live feed is cut: it keeps showing the card after the first tab decides.
    const second = await openPage(browser());
    await second.page.route(
      (url) => url.pathname.endsWith('/events'),
      (route) => route.abort(),
    );
    await signIn(second.page, server.baseURL, API_TOKEN, `/#${encodeURIComponent(id)}`);
    await waitingCard(second.page).getByRole('button', { name: 'Allow' }).waitFor();

    await card.getByRole('button', { name: 'Allow' }).click();
    await replies(page)
      .filter({ hasText: approvalAnswer('allowed-output') })
      .waitFor();
    await outcome(page, /^Allowed by caller:/).waitFor();
    await idle(page);
    await hint(page).waitFor({ state: 'detached' });
    expect(await readWorkspaceFile(server, 'ran.txt')).toBe('ran\n');

    await waitingCard(second.page).getByRole('button', { name: 'Allow' }).click();
    await outcome(second.page, /^Already decided: allowed by caller:/).waitFor();
    // Refreshed: the answer shows, and no button is left to press.
    await replies(second.page)
      .filter({ hasText: approvalAnswer('allowed-output') })
      .waitFor();
    expect(await log(second.page).getByRole('button', { name: 'Allow' }).count()).toBe(0);
    expect(await readWorkspaceFile(server, 'ran.txt')).toBe('ran\n');
    const { decisions, results } = await ledger(server, id);
    expect(decisions).toMatchObject([{ outcome: 'approve', decidedBy: expect.stringMatching(/^caller:/) }]);
    expect(results).toHaveLength(1);
    expect(pageErrors).toEqual([]);
    expect(second.pageErrors).toEqual([]);
  });

  it('keeps a waiting call across a reload, shows another tab’s denial live, and the model reads the reason', async () => {
    const server = await startServer(SERVER_OPTIONS);
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const id = await startConversation(page, `${APPROVAL_PROMPT_PREFIX}echo no >> denied.txt`);
    await waitingCard(page).waitFor();
    await page.reload();
    await waitingCard(page).getByRole('button', { name: 'Allow' }).waitFor();
    await hint(page).waitFor();

    const watcher = await openPage(browser());
    await signIn(watcher.page, server.baseURL, API_TOKEN, `/#${encodeURIComponent(id)}`);
    await waitingCard(watcher.page).getByRole('button', { name: 'Allow' }).waitFor();

    const reason = 'not on a Friday';
    await waitingCard(page).getByRole('button', { name: 'Deny' }).click();
    await page.getByLabel(/^Reason/).fill(reason);
    await waitingCard(page).getByRole('button', { name: 'Deny', exact: true }).click();
    const answer = replies(page).filter({ hasText: 'Not run. I read:' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain(reason);
    await outcome(page, new RegExp(`^Denied by caller:\\S+: ${reason}$`)).waitFor();

    // The other tab follows the conversation's feed: the card turns into the decision, no stale buttons.
    await outcome(watcher.page, /^Denied by caller:/).waitFor();
    await replies(watcher.page).filter({ hasText: 'Not run. I read:' }).waitFor();
    expect(await log(watcher.page).getByRole('button', { name: 'Allow' }).count()).toBe(0);
    await hint(watcher.page).waitFor({ state: 'detached' });

    const { decisions, results } = await ledger(server, id);
    expect(decisions).toMatchObject([{ outcome: 'deny', reason }]);
    expect(results).toHaveLength(1);
    expect(await readWorkspaceFile(server, 'denied.txt')).toBeUndefined();
    expect(pageErrors).toEqual([]);
    expect(watcher.pageErrors).toEqual([]);
  });

  it('edits the input as checked JSON from the keyboard; a message sent instead supersedes the call', async () => {
    const server = await startServer(SERVER_OPTIONS);
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const id = await startConversation(page, `${APPROVAL_PROMPT_PREFIX}echo as-asked`);
    await waitingCard(page).waitFor();
    await idle(page);

    // Review goes to the card; the keyboard reaches its buttons; Escape leaves a form for its button.
    await hint(page).getByRole('button', { name: 'Review' }).click();
    await page.keyboard.press('Tab');
    await focusOn(page, 'Allow');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await focusOn(page, 'Reason');
    await page.keyboard.press('Escape');
    await page.getByLabel(/^Reason/).waitFor({ state: 'detached' });
    await focusOn(page, 'Deny');

    await waitingCard(page).getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByLabel('Input as JSON');
    expect(JSON.parse(await editor.inputValue())).toEqual({ command: 'echo as-asked' });
    await editor.fill('{ "command": ');
    await page.getByRole('button', { name: 'Allow edited' }).click();
    await waitingCard(page).getByRole('alert').filter({ hasText: 'Not valid JSON' }).waitFor();
    await editor.fill('{ "command": "echo edited >> edited.txt && echo edited-output" }');
    await page.getByRole('button', { name: 'Allow edited' }).click();
    await replies(page)
      .filter({ hasText: approvalAnswer('edited-output') })
      .waitFor();
    await outcome(page, /^Allowed with an edited input by caller:/).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'approval-decided.png') });
    expect(await readWorkspaceFile(server, 'edited.txt')).toBe('edited\n');
    await idle(page);

    await page.getByLabel('Message', { exact: true }).fill(`${APPROVAL_PROMPT_PREFIX}echo never`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await waitingCard(page).waitFor();
    await hint(page).waitFor();
    await idle(page);
    await page.getByLabel('Message', { exact: true }).fill(`${PLAIN_PROMPT_PREFIX}instead`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await replies(page)
      .filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}instead`) })
      .waitFor();
    await outcome(page, 'Superseded by a new message').waitFor();
    await hint(page).waitFor({ state: 'detached' });
    expect(await waitingCard(page).count()).toBe(0);
    const { decisions } = await ledger(server, id);
    expect(decisions.map((decision) => decision.outcome)).toEqual(['edit', 'superseded']);
    expect(pageErrors).toEqual([]);
  });

  it('turns a card whose time ran out into its expiry, without buttons; the next message goes on', async () => {
    const server = await startServer({ ...SERVER_OPTIONS, approvalTtlMs: 1500 });
    const { page, pageErrors } = await openPage(browser());
    await signIn(page, server.baseURL, API_TOKEN);
    const id = await startConversation(page, `${APPROVAL_PROMPT_PREFIX}echo late >> late.txt`);
    const card = waitingCard(page);
    await card.getByText(/expire(s|d) at \d/).waitFor();
    await card.getByText('Expired: no decision came in time').waitFor();
    expect(await card.getByRole('button').count()).toBe(0);
    await hint(page).waitFor({ state: 'detached' });

    await page.getByLabel('Message', { exact: true }).fill(`${PLAIN_PROMPT_PREFIX}later`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await replies(page)
      .filter({ hasText: plainReply(`${PLAIN_PROMPT_PREFIX}later`) })
      .waitFor();
    await card.waitFor({ state: 'detached' });
    // Decided by the server as the message was stored (it calls an expired request superseded, too).
    await outcome(page, /^(Expired|Superseded)/).waitFor();
    const { decisions } = await ledger(server, id);
    expect(decisions).toMatchObject([{ decidedBy: 'system' }]);
    expect(await readWorkspaceFile(server, 'late.txt')).toBeUndefined();
    expect(pageErrors).toEqual([]);
  });
});
