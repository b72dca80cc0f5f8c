import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

const WORKFLOW = `
id: review
name: Review a document
entry: draft
nodes:
  - id: draft
    name: Draft
    instruction: Write a first draft.
  - id: check
    name: Check
    instruction: Check the draft for mistakes.
edges:
  - from: draft
    to: check
    default: true
`;

describe('cairn workflow run / runs (run mode, continued by a new process)', () => {
  it('starts a run from a YAML file, and a later process continues it to completion', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { text: 'Draft written.', toolCalls: [{ name: 'complete_step', arguments: { summary: 'drafted' } }] },
        { text: 'The draft is ready; shall I check it?' },
        { toolCalls: [{ name: 'complete_step', arguments: { summary: 'checked' } }] },
        { text: 'Checked: no mistakes.' },
      ],
    });
    try {
      const dir = tempDir('workflow');
      const file = join(dir, 'review.yaml');
      writeFileSync(file, WORKFLOW);
      const env = mockEnv(dir, server.baseURL);
      const started = await runCairn(['workflow', 'run', file, '--input', 'the intro', '--run-id', 'r1'], {
        env,
      });
      expect(started.code, started.stderr).toBe(0);
      expect(started.stdout).toContain('Draft written.');
      expect(started.stdout).toMatch(/step draft → check/);
      expect(started.stderr).toMatch(/r1\s+active\s+at step "check"/);
      expect(started.stderr).toContain('cairn runs continue r1');

      const listed = await runCairn(['runs', 'list'], { env });
      expect(listed.stdout).toMatch(/r1\s+active/);

      const continued = await runCairn(['runs', 'continue', 'r1', '--input', 'yes, check it'], { env });
      expect(continued.code, continued.stderr).toBe(0);
      expect(continued.stdout).toContain('Checked: no mistakes.');
      expect(continued.stderr).toMatch(/r1\s+completed/);
      // The new process's request had the run's step and history from the store.
      expect(JSON.stringify(chatRequests(server)[2]?.body)).toContain('Check the draft for mistakes.');

      const shown = await runCairn(['runs', 'show', 'r1'], { env });
      expect(shown.stdout).toContain('input: the intro');
      expect(shown.stdout).toContain('Checked: no mistakes.');
    } finally {
      await server.close();
    }
  });

  it('refuses an invalid workflow file with the file, the field and a non-zero exit', async () => {
    const dir = tempDir('badflow');
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, WORKFLOW.replace('to: check', 'to: nowhere'));
    const run = await runCairn(['workflow', 'run', file], { env: cliEnv(dir) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.yaml: .*edges\[0\]\.to/);
  });

  it('says which field is wrong, pointing at the documented format and a sample, as the README shows', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const workflows = readme.slice(readme.indexOf('\n## Workflows\n'));
    const sample = /```yaml\n([\s\S]*?)```/.exec(workflows)?.[1] as string;
    const documented = /```text\n(cairn: review\.yaml: .*)\n```/.exec(workflows)?.[1];
    const dir = tempDir('typoflow');
    writeFileSync(join(dir, 'review.yaml'), sample.replace('to: review # back', 'to: reviews # back'));
    const env = cliEnv(dir);
    const run = await runCairn(['workflow', 'run', 'review.yaml'], { env, cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(documented);
    expect(run.stderr).toContain('edges[3].to: no node has the id "reviews"');
    expect(run.stderr).toMatch(
      /— see the workflow format at https:\/\/\S+\/packages\/runtime#workflow-files; /,
    );

    const missing = await runCairn(['workflow', 'run', 'nothing.yaml'], { env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(
      'cairn: cannot read nothing.yaml (ENOENT) [INVALID_ARGUMENT] — check the path; `cairn workflow init nothing.yaml` writes a sample there',
    );
  });
});
