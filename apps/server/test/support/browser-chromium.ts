import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's `chromium` package; CI installs it too. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Headless without a sandbox (containers have no user namespaces), and quiet: no network of its own.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here, or undefined when they can. Only a developer machine
 * without Chromium skips them: in CI a missing browser must fail the run, not hide it.
 */
export function chromiumSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH) || process.env.CI) return undefined;
  return `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium package or set CHROMIUM_PATH)`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
