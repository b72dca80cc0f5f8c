import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { chromiumSkipReason, findChromium, launchChromium } from './browser-chromium.js';
import { type BrowserTestServer, ensureWebBuilt, startBrowserTestServer } from './browser-server.js';

/** The API token of every browser suite's test server. */
export const API_TOKEN = 'browser-test-token-0123456789';

// CHROMIUM_PATH, else the system's Chromium, else the npm one (unpacked on first use); none: the
// suite is skipped with the reason in its title, except in CI, where launching fails with it.
const chromiumLookup = await findChromium();
const skipReason = chromiumSkipReason(chromiumLookup);
const chromiumSource = chromiumLookup.found === undefined ? '' : ` (${chromiumLookup.found.source})`;

export interface BrowserSuite {
  /** The suite's Chromium (launched before its first test). */
  browser(): Browser;
  /** The test's server with the built page and the scripted model (`API_TOKEN`); closed after the test. */
  startServer(options?: Parameters<typeof startBrowserTestServer>[0]): Promise<BrowserTestServer>;
}

/**
 * A suite of tests of the web page in headless Chromium: the page built first, one browser for the
 * suite, a fresh test server per test.
 */
export function describeInChromium(title: string, tests: (suite: BrowserSuite) => void): void {
  const heading =
    skipReason === undefined
      ? `${title} in headless Chromium${chromiumSource}`
      : `${title} — skipped: ${skipReason}`;
  describe.skipIf(skipReason !== undefined)(heading, () => {
    let browser: Browser | undefined;
    let server: BrowserTestServer | undefined;

    beforeAll(async () => {
      ensureWebBuilt();
      browser = await launchChromium(chromiumLookup);
    });

    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    afterAll(async () => {
      await browser?.close();
    });

    tests({
      browser() {
        if (browser === undefined) throw new Error('the suite’s Chromium is not launched yet');
        return browser;
      },
      async startServer(options = { apiToken: API_TOKEN }) {
        server = await startBrowserTestServer(options);
        return server;
      },
    });
  });
}
