import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentOutputOf } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { fakeAgentExecutor } from './fake-agent-executor.js';

// The real CLIs' API-error recordings (packages/agent-cli/fixtures/real), replayed by the fake
// agent with the exit code and stderr the real CLI had.
const realFixture = (cli: string, name: string) =>
  fileURLToPath(new URL(`../../agent-cli/fixtures/real/${cli}/${name}.jsonl`, import.meta.url));

// What Gemini CLI wrote to stderr in that run (recorded beside it): a retry line and a stack per
// retried attempt, then "Attempt 10 failed: … Max attempts reached", which is no retry.
const GEMINI_STDERR = readFileSync(
  new URL('../../agent-cli/fixtures/real/gemini-cli/apierr.stderr.txt', import.meta.url),
  'utf8',
);
// The retries in it, read with a regex of this test's own (not the executor's stderr converter).
const GEMINI_STDERR_RETRIES = [
  ...GEMINI_STDERR.matchAll(/^Attempt (\d+) failed with status (\d+)\. Retrying with backoff/gm),
].map(([, attempt, status]) => ({ attempt: Number(attempt), status: Number(status) }));

describe('a run that ends in an API error of the real CLI', () => {
  it("Gemini CLI: the run's error and its one stored error are the API error, its retries are events", async () => {
    const { store, executor } = await fakeAgentExecutor('gemini-cli', {
      FAKE_AGENT_FIXTURE: realFixture('gemini-cli', 'apierr'),
      FAKE_AGENT_STDERR: GEMINI_STDERR,
      FAKE_AGENT_EXIT_CODE: '247',
    });
    const retries: AgentOutputOf<'retry'>[] = [];
    const result = await executor.run({
      prompt: 'Do two steps. [scenario:apierr]',
      onEvent: (event) => {
        if (event.type === 'retry') retries.push(event);
      },
    });

    const error = { code: 'LLM_UNAVAILABLE', message: 'The model is overloaded. Please try again later.' };
    expect(result).toMatchObject({ success: false, exitCode: 247, error });
    expect(result).not.toHaveProperty('durationMs');
    const log = await store.load(result.conversationId);
    const errors = log.filter((message) => message.partType === 'error');
    expect(errors).toEqual([expect.objectContaining({ errorCode: error.code, content: error.message })]);
    expect(JSON.stringify(log)).not.toContain('processTicksAndRejections');
    // The recording: one 500 retried (the stand-in then answers), then 503 on attempts 1-9.
    expect(GEMINI_STDERR_RETRIES.map(({ status }) => status)).toEqual([500, ...Array(9).fill(503)]);
    expect(GEMINI_STDERR).toMatch(/^Attempt 10 failed: .*Max attempts reached$/m);
    expect(retries.map(({ attempt, status }) => ({ attempt, status }))).toEqual(GEMINI_STDERR_RETRIES);
    // Retries are shown live, not stored.
    expect(JSON.stringify(log)).not.toContain('Retrying with backoff');
  });

  it("Claude Code: the synthetic API-error message is the run's one error, never an assistant message", async () => {
    const { store, executor } = await fakeAgentExecutor('claude-code', {
      FAKE_AGENT_FIXTURE: realFixture('claude-code', 'apierr'),
      FAKE_AGENT_STDERR: 'API Error: 529 Overloaded\n',
      FAKE_AGENT_EXIT_CODE: '1',
    });
    const result = await executor.run({ prompt: 'Do two steps. [scenario:apierr]' });

    expect(result).toMatchObject({
      success: false,
      exitCode: 1,
      error: {
        code: 'LLM_UNAVAILABLE',
        message: expect.stringMatching(/^Repeated 529 Overloaded errors\. The API is at capacity/),
      },
    });
    const log = await store.load(result.conversationId);
    expect(log.filter((message) => message.partType === 'error')).toEqual([
      expect.objectContaining({ errorCode: 'LLM_UNAVAILABLE', content: result.error?.message }),
    ]);
    const texts = log.filter((message) => message.role === 'assistant' && message.partType !== 'error');
    expect(texts.map((message) => message.content).join('\n')).not.toContain('API Error');
  });
});
