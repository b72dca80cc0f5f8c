import { existsSync } from 'node:fs';
import type { AgentOutput } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import { CLAUDE_CODE_FIXTURE, FIXTURE_PROMPT, fakeAgentCommand, tempDir } from './support.js';

async function abortedRun(env: Record<string, string>, killGraceMs: number) {
  const store = createMemoryConversationStore();
  const executor = createAgentExecutor({
    store,
    agent: 'claude-code',
    cwd: await tempDir(),
    killGraceMs,
    // The agent stops after its first tool call and hangs, as if the tool never returned.
    ...fakeAgentCommand({
      FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE,
      FAKE_AGENT_LINES: '3',
      FAKE_AGENT_HANG: '1',
      ...env,
    }),
  });
  const controller = new AbortController();
  let abortedAt = 0;
  const onEvent = (event: AgentOutput) => {
    if (event.type === 'tool_use') {
      abortedAt = Date.now();
      controller.abort();
    }
  };
  const result = await executor.run({ prompt: FIXTURE_PROMPT, signal: controller.signal, onEvent });
  return { result, log: await store.load(result.conversationId), elapsedMs: Date.now() - abortedAt };
}

describe('aborting a run', () => {
  it('sends SIGTERM; the run resolves with LLM_ABORTED after interrupted tool results', async () => {
    // A grace period longer than any test timeout: only SIGTERM can have ended this run.
    const { result, log } = await abortedRun({}, 10 * 60_000);

    expect(result).toMatchObject({ success: false, exitCode: null, signal: 'SIGTERM' });
    expect(result.error).toEqual({ code: 'LLM_ABORTED', message: 'The run was aborted' });
    expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log[2]).toMatchObject({ interrupted: true });
    expect(log[2]?.content).toContain('the run was aborted');
    expect(log[3]).toMatchObject({ partType: 'error', errorCode: 'LLM_ABORTED' });
  });

  it('sends SIGKILL when the agent ignores SIGTERM for killGraceMs', async () => {
    const { result, log, elapsedMs } = await abortedRun({ FAKE_AGENT_IGNORE_SIGTERM: '1' }, 300);

    expect(result).toMatchObject({ success: false, signal: 'SIGKILL' });
    expect(result.error).toEqual({
      code: 'LLM_ABORTED',
      message: 'The run was aborted; Claude Code ignored SIGTERM and was killed with SIGKILL after 300 ms',
    });
    expect(elapsedMs).toBeGreaterThanOrEqual(290);
    expect(log.at(-1)).toMatchObject({ errorCode: 'LLM_ABORTED' });
  });

  it('an already aborted signal starts no process but records the prompt and the abort', async () => {
    const store = createMemoryConversationStore();
    const argvFile = `${await tempDir()}/argv.jsonl`;
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_ARGV_FILE: argvFile }),
    });

    const result = await executor.run({ prompt: 'never sent', signal: AbortSignal.abort() });

    expect(result).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    expect(result.transcriptRef).toBeUndefined();
    expect(existsSync(argvFile)).toBe(false);
    const log = await store.load(result.conversationId);
    expect(log.map((message) => message.errorCode ?? message.role)).toEqual(['user', 'LLM_ABORTED']);
  });
});
