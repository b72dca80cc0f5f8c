import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

// What the README shows is what `cairn workflow init` writes.
const README_SAMPLE = /## Workflows\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(
  readFileSync(new URL('../README.md', import.meta.url), 'utf8'),
)?.[1] as string;

/** The `cairn workflow run …` line `init` printed, as arguments (it quotes its input with "…"). */
function printedRunCommand(stdout: string): string[] {
  const match = /^run it: cairn workflow run (\S+) -i "([^"]+)"$/m.exec(stdout);
  if (match === null) throw new Error(`no "run it:" line in:\n${stdout}`);
  return ['workflow', 'run', match[1] as string, '-i', match[2] as string];
}

describe('cairn workflow init', () => {
  it('writes the sample to workflow.yaml, and the command it prints runs it to completion', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [{ name: 'complete_step', arguments: { summary: 'README.md explains the CLI' } }] },
        // No edge named: the review takes its default edge, "approved", to the report.
        { toolCalls: [{ name: 'complete_step', arguments: {} }] },
        { toolCalls: [{ name: 'complete_step', arguments: {} }] },
        { text: 'Reviewed README.md: nothing needs changing.' },
      ],
    });
    try {
      const dir = tempDir('workflow-init');
      const env = mockEnv(dir, server.baseURL);
      const init = await runCairn(['workflow', 'init'], { env, cwd: dir });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout.split('\n').slice(0, 2)).toEqual([
        'wrote a sample workflow to workflow.yaml',
        'run it: cairn workflow run workflow.yaml -i "Review README.md"',
      ]);
      expect(init.stdout).toContain(
        'the format: https://github.com/cairn-dev/cairn/tree/main/packages/runtime#workflow-files',
      );
      expect(readFileSync(join(dir, 'workflow.yaml'), 'utf8')).toBe(README_SAMPLE);

      const run = await runCairn([...printedRunCommand(init.stdout), '--run-id', 'r1'], { env, cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Reviewed README.md: nothing needs changing.');
      expect(run.stdout).toMatch(/step read → review[\s\S]*step review → report/);
      expect(run.stderr).toMatch(/r1\s+completed\s+finished \(3 steps done\)\s+file\/review/);
      // The model was given the sample's first step.
      expect(JSON.stringify(chatRequests(server)[0]?.body)).toContain(
        'Read what the user asked you to review (a file, a folder or a diff)',
      );

      const shown = await runCairn(['runs', 'show', 'r1'], { env, cwd: dir });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/^r1\s+completed/);
      expect(shown.stdout).toContain('input: Review README.md');
      expect(shown.stdout).toContain('Reviewed README.md: nothing needs changing.');
    } finally {
      await server.close();
    }
  });

  it('never writes over a file unless --force; a directory gets workflow.yaml inside', async () => {
    const dir = tempDir('workflow-init-force');
    const env = cliEnv(dir);
    const mine = join(dir, 'workflow.yaml');
    writeFileSync(mine, 'id: mine\n');
    const refused = await runCairn(['workflow', 'init'], { env, cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      'cairn: workflow.yaml already exists [INVALID_ARGUMENT] — pass --force to replace it, or name another file: cairn workflow init FILE',
    );
    expect(readFileSync(mine, 'utf8')).toBe('id: mine\n');

    const forced = await runCairn(['workflow', 'init', '--force'], { env, cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(mine, 'utf8')).toBe(README_SAMPLE);

    const nested = await runCairn(['workflow', 'init', 'flows/'], { env, cwd: dir });
    expect(nested.code, nested.stderr).toBe(0);
    expect(nested.stdout).toContain('run it: cairn workflow run flows/workflow.yaml -i');
    expect(readFileSync(join(dir, 'flows', 'workflow.yaml'), 'utf8')).toBe(README_SAMPLE);

    const json = await runCairn(['workflow', 'init', 'review.json'], { env, cwd: dir });
    expect(json.code).toBe(2);
    expect(json.stderr.trim()).toBe(
      'cairn: review.json: the sample workflow is YAML, with comments, not JSON [INVALID_ARGUMENT] — name a .yaml file: cairn workflow init review.yaml',
    );
    expect(existsSync(join(dir, 'review.json'))).toBe(false);
  });

  it('is in the help of `cairn workflow`, with examples', async () => {
    const env = cliEnv(tempDir('workflow-help'));
    const group = await runCairn(['workflow', '--help'], { env });
    expect(group.stdout).toMatch(/^\s+init \[options\] \[file\]\s+write a sample workflow/m);
    expect(group.stdout).toContain('$ cairn workflow init ');
    const init = await runCairn(['workflow', 'init', '--help'], { env });
    expect(init.stdout).toContain('--force');
    expect(init.stdout).toContain('Examples:');
  });

  it('with no model configured, the demo walks it to the end (saying it is scripted), stored', async () => {
    const dir = tempDir('workflow-init-demo');
    const env = cliEnv(dir);
    const init = await runCairn(['workflow', 'init', 'review.yaml'], { env, cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const run = await runCairn(printedRunCommand(init.stdout), { env, cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('offline demo');
    expect(run.stdout).toMatch(/step read → review[\s\S]*step review → report[\s\S]*workflow completed/);
    expect(run.stdout).toContain('scripted offline demo: it completes steps without doing their work');
    const listed = await runCairn(['runs', 'list'], { env, cwd: dir });
    expect(listed.stdout).toMatch(/completed\s+finished \(3 steps done\)\s+file\/review/);
  });
});
