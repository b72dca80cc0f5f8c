// Every guide in docs/ runs as a user would run it: each of its ```js scripts (see guide-code.ts
// for the conventions) in a child `node` process, in order, in one directory. Each must exit 0 and
// print exactly the guide's "It prints:" block that follows it. One test per guide.
import { describe, expect, inject, it } from 'vitest';
import { runGuide } from './guide-code.js';

async function expectGuideRuns(guide: string, env: Record<string, string> = {}): Promise<void> {
  const { dir, runs } = await runGuide(guide, env);
  for (const run of runs) {
    const where = `docs/${guide}.md, script ${run.script.name} (in ${dir})\nstderr:\n${run.stderr}`;
    expect(run.code, where).toBe(0);
    expect(run.stdout, where).toBe(run.script.expected);
  }
}

describe('the guides in docs/ run and print what they say', () => {
  // getting-started runs in getting-started.test.ts: in an empty npm project, as a new user types it.

  it('cairn-for-ai-sdk-users', () => expectGuideRuns('cairn-for-ai-sdk-users'));

  it('writing-a-provider-adapter', () => expectGuideRuns('writing-a-provider-adapter'));

  it('writing-a-storage-backend', () => expectGuideRuns('writing-a-storage-backend'));

  it('migrating-from-messages-json', () => expectGuideRuns('migrating-from-messages-json'));

  it('adding-an-agent-cli', () => expectGuideRuns('adding-an-agent-cli'));

  it('images-files-and-structured-output', () => expectGuideRuns('images-files-and-structured-output'));

  it('running-the-server-on-several-instances', () =>
    expectGuideRuns('running-the-server-on-several-instances', { DATABASE_URL: inject('databaseUrl') }));
});
