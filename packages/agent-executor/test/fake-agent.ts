import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@cairn/core';
import { afterEach } from 'vitest';

/** The fake agent script (see its header for the variables it obeys). */
export const FAKE_AGENT = fileURLToPath(new URL('./fake-agent.mjs', import.meta.url));
// The captured transcripts live beside the converters that own them.
export const CLAUDE_CODE_FIXTURE = fileURLToPath(
  new URL('../../provider-anthropic/src/claude-code/__fixtures__/stream.jsonl', import.meta.url),
);
export const GEMINI_CLI_FIXTURE = fileURLToPath(
  new URL('../../provider-gemini/src/gemini-cli/__fixtures__/stream.jsonl', import.meta.url),
);
/** The prompt both recorded transcripts answer. */
export const FIXTURE_PROMPT =
  'Create hello.txt containing a greeting, change the greeting, list the directory, then check whether does-not-exist.txt exists.';
export const CLAUDE_CODE_SESSION_ID = 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490';
export const GEMINI_CLI_SESSION_ID = '36d01c64-f5ba-4a5c-86ac-75956eb73cfb';

/** Executor options that run the fake agent with `node` (no executable bit needed). */
export function fakeAgentCommand(env: Record<string, string> = {}) {
  return { command: process.execPath, commandArgs: [FAKE_AGENT], env };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-agent-executor-'));
  dirs.push(dir);
  return dir;
}

/** A display view in one line per message: who, and the text or tool summary. */
export function describeDisplay(messages: readonly ConversationMessage[]): string[] {
  return messages.map((message) => {
    if (message.partType === 'tool_execution') {
      const execution = message.toolExecution;
      return `tool${execution?.isError ? ' (error)' : ''}: ${message.content}`;
    }
    if (message.partType === 'error') return `error ${message.errorCode}: ${message.content}`;
    return `${message.role}: ${message.content}`;
  });
}
