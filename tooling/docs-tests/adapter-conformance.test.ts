// The provider-adapter guide says its example adapter passes the conformance kit: check it. The
// guide's `acme-adapter.mjs` block is written out as the guide test does and run through every
// case of `describeModelAdapterConformance`, as a provider package's own test would.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelAdapter } from '@cairn/core';
import { type ConformanceAdapterSettings, describeModelAdapterConformance } from '@cairn/testing/conformance';
import { afterAll } from 'vitest';
import { readGuideCode, writeGuideCode } from './guide-code.js';

const guide = 'writing-a-provider-adapter';
const dir = await writeGuideCode(guide, await readGuideCode(guide));
const { createAcmeAdapter } = (await import(pathToFileURL(join(dir, 'acme-adapter.mjs')).href)) as {
  createAcmeAdapter: (options: ConformanceAdapterSettings & { model: string }) => ModelAdapter;
};
afterAll(() => rm(dir, { recursive: true, force: true }));

describeModelAdapterConformance({
  name: `the example adapter of docs/${guide}.md`,
  provider: 'openai',
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createAcmeAdapter({ model: 'acme-1', baseURL, apiKey, maxRetries }),
});
