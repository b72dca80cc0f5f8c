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

// A real Qwen Code 0.15.10 run (stream-json), replayed by the fake agent as `qwen`.
const fixture = (name: string) =>
  fileURLToPath(
    new URL(`../../../../packages/agent-cli/fixtures/real/qwen-code/${name}.jsonl`, import.meta.url),
  );
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';

async function runQwen(transcript: string) {
  const bin = await tempDir();
  const argvFile = join(bin, 'argv.jsonl');
  const store = createFsConversationStore({ rootDir: await tempDir() });
  const qwen = await installFakeAgent(bin, 'qwen');
  const io = capturedIO({
    cwd: await tempDir(),
    env: { FAKE_AGENT_TRANSCRIPT: transcript, FAKE_AGENT_ARGV_FILE: argvFile, CAIRN_QWEN_COMMAND: qwen },
  });
  const code = await runAgentCommand(
    { agent: 'qwen', prompt: PROMPT, cwd: '.' },
    { io, store, colors: createColors(false) },
  );
  return { code, stdout: io.stdout.text, stderr: io.stderr.text, argvs: () => readArgvs(argvFile) };
}

describe('cairn agent qwen', () => {
  it('runs qwen --prompt=… --output-format stream-json and shows the merged tool lines', async () => {
    const { code, stdout, argvs } = await runQwen(fixture('main'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/Created .*hello\.txt/);
    expect(stdout).toMatch(/Updated .*hello\.txt/);
    expect(stdout).toContain('Ran `ls -la`');
    expect(stdout).toContain('Done: hello.txt says Hello, Cairn!');
    // `cairn agent`'s default read-only permissions, as Qwen Code's approval mode.
    expect(await argvs()).toEqual([
      [`--prompt=${PROMPT}`, '--output-format', 'stream-json', '--approval-mode=default'],
    ]);
  });

  it('fails on the API error Qwen Code reports as a success', async () => {
    const { code, stderr } = await runQwen(fixture('err400'));
    expect(code).not.toBe(0);
    // The provider's message with its code, not the CLI's "[API Error: 400 …]" wrapper.
    expect(stderr).toContain('mock: this request is invalid');
    expect(stderr).toContain('LLM_BAD_REQUEST');
    expect(stderr).not.toContain('[API Error');
  });
});
