import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

describe('cairn demo: the offline demo model, with no key and no network', () => {
  it('tours the sample workspace, stores it, and the conversation commands show, export and delete it', async () => {
    const dataDir = tempDir('demo');
    const env = cliEnv(dataDir);
    const demo = await runCairn(['demo'], { env });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stderr).toMatch(/offline demo.*scripted tour.*not a language model/i);
    // Each tool call is one merged line; the edit shows its diff; the command fails on purpose.
    const lines = demo.stdout.split('\n');
    expect(lines.some((line) => /✓.*src\/greet\.js/.test(line))).toBe(true);
    expect(lines.some((line) => /^\s*-.*/.test(line)) && lines.some((line) => /^\s*\+.*/.test(line))).toBe(
      true,
    );
    expect(lines.some((line) => line.includes('✗'))).toBe(true);
    const workspace = join(dataDir, 'demo-workspace');
    expect(demo.stderr).toContain(workspace);
    expect(readFileSync(join(workspace, 'src', 'greet.js'), 'utf8')).not.toBe('');

    const id = /stored as (\S+?):/.exec(demo.stderr)?.[1] as string;
    expect(id).toMatch(/^chat-/);
    const list = await runCairn(['conversations', 'list'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);

    const show = await runCairn(['conversations', 'show', id], { env });
    expect(show.code).toBe(0);
    // Reloaded from the store, the conversation looks as it did live (tool lines and diff included).
    for (const line of lines.filter((text) => /[✓✗]/.test(text))) expect(show.stdout).toContain(line.trim());

    const markdown = await runCairn(['conversations', 'export', id, '--format', 'md'], { env });
    expect(markdown.stdout).toContain('```diff');
    const json = JSON.parse(
      (await runCairn(['conversations', 'export', id, '--format', 'json'], { env })).stdout,
    );
    expect(json.conversationId).toBe(id);
    const jsonl = (await runCairn(['conversations', 'export', id], { env })).stdout.trim().split('\n');
    expect(jsonl.map((line) => JSON.parse(line).seq)).toEqual(
      json.messages.map((message: { seq: number }) => message.seq),
    );
    expect(json.messages.filter((message: { role: string }) => message.role === 'tool').length).toBe(4);

    const removed = await runCairn(['conversations', 'delete', id, '--yes'], { env });
    expect(removed.stdout).toContain(`deleted ${id}`);
    expect((await runCairn(['conversations', 'list'], { env })).stdout).not.toContain(id);
  });

  it('--help on every command has examples, and --version prints the version', async () => {
    const env = cliEnv(tempDir('help'));
    for (const command of [
      [],
      ['chat'],
      ['demo'],
      ['conversations'],
      ['workflow', 'run'],
      ['runs'],
      ['agent'],
      ['convert'],
    ]) {
      const help = await runCairn([...command, '--help'], { env });
      expect(help.code, command.join(' ')).toBe(0);
      expect(help.stdout, command.join(' ')).toContain('Examples:');
    }
    const version = await runCairn(['--version'], { env });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
  it("only `cairn demo` resets the sample project: other commands keep the user's own fixes", async () => {
    const dataDir = tempDir('keep');
    const env = cliEnv(dataDir);
    expect((await runCairn(['demo'], { env })).code).toBe(0);
    const source = join(dataDir, 'demo-workspace', 'src', 'greet.js');
    writeFileSync(source, '// fixed by me\n');
    expect((await runCairn(['-p', 'anything'], { env })).code).toBe(0);
    expect((await runCairn(['runs', 'list'], { env })).code).toBe(0);
    expect(readFileSync(source, 'utf8')).toBe('// fixed by me\n');
    // The tour starts from the sample again (and fixes its first bug again; the second stays).
    expect((await runCairn(['demo'], { env })).code).toBe(0);
    expect(readFileSync(source, 'utf8')).not.toContain('fixed by me');
    expect(readFileSync(source, 'utf8')).toContain('toLowerCase');
  });

  it('with a real model, the tour still runs in the sample project, not where cairn was started', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.txt', content: 'written' } }] },
        { text: 'Done.' },
      ],
    });
    try {
      const dataDir = tempDir('real-demo');
      const cwd = tempDir('real-demo-cwd');
      const run = await runCairn(['demo'], { env: mockEnv(dataDir, server.baseURL), cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`workspace: ${join(dataDir, 'demo-workspace')}`);
      expect(readFileSync(join(dataDir, 'demo-workspace', 'NOTES.txt'), 'utf8')).toBe('written');
      expect(() => readFileSync(join(cwd, 'NOTES.txt'))).toThrow();
    } finally {
      await server.close();
    }
  });
});
