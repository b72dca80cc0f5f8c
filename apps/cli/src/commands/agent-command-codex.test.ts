import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFsConversationStore } from '@cairn/store-fs';
import { describe, expect, it } from 'vitest';
import {
  capturedIO,
  installFakeAgent,
  readArgvs,
  tempDir,
} from '../../test/fixtures/agent/agent-test-support.js';
import { createColors } from '../render/colors.js';
import { runAgentCommand } from './agent-command.js';

// A real Codex CLI 0.171.0 run (`codex exec --json`), replayed by the fake agent as `codex`.
const CODEX_MAIN = fileURLToPath(
  new URL('../../../../packages/agent-cli/fixtures/real/codex/main.jsonl', import.meta.url),
);
const CODEX_ERR400 = fileURLToPath(
  new URL('../../../../packages/agent-cli/fixtures/real/codex/err400.jsonl', import.meta.url),
);
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';

async function runCodex(transcript: string, env: NodeJS.ProcessEnv = {}) {
  const bin = await tempDir();
  const argvFile = join(bin, 'argv.jsonl');
  const store = createFsConversationStore({ rootDir: await tempDir() });
  const codex = await installFakeAgent(bin, 'codex');
  const io = capturedIO({
    cwd: await tempDir(),
    env: {
      FAKE_AGENT_TRANSCRIPT: transcript,
      FAKE_AGENT_ARGV_FILE: argvFile,
      CAIRN_CODEX_COMMAND: codex,
      ...env,
    },
  });
  const code = await runAgentCommand(
    { agent: 'codex', prompt: PROMPT, cwd: '.' },
    { io, store, colors: createColors(false) },
  );
  return { code, stdout: io.stdout.text, stderr: io.stderr.text, store, argvs: () => readArgvs(argvFile) };
}

describe('cairn agent codex', () => {
  it('runs codex exec --json (CAIRN_CODEX_COMMAND), shows the merged tool lines and stores the run', async () => {
    const { code, stdout, stderr, store, argvs } = await runCodex(CODEX_MAIN);

    expect(code).toBe(0);
    expect(stdout).toContain('Creating hello.txt.');
    expect(stdout).toMatch(/Created .*hello\.txt/);
    expect(stdout).toMatch(/Updated .*hello\.txt/);
    expect(stdout).toContain('Ran `ls -la`');
    expect(stdout).toMatch(/Read does-not-exist\.txt — failed/);
    expect(stdout).toContain('Done: hello.txt says Hello, Cairn!');
    const [conversation] = (await store.listConversations()).conversations;
    expect(stderr).toContain(
      `continue with: cairn agent codex --resume --conversation ${conversation?.id} "…"`,
    );
    // `cairn agent`'s default read-only permissions, as Codex's sandbox mode.
    expect(await argvs()).toEqual([
      ['exec', '--json', '-c', 'sandbox_mode="read-only"', '-c', 'approval_policy="never"', '--', PROMPT],
    ]);
  });

  it('fails with the classified error of a failed turn', async () => {
    const { code, stderr } = await runCodex(CODEX_ERR400, { FAKE_AGENT_EXIT_CODE: '1' });
    expect(code).not.toBe(0);
    expect(stderr).toContain('mock: this request is invalid');
  });
});
