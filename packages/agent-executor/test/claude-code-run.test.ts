import { chmod, readFile, realpath } from 'node:fs/promises';
import { type ConversationMessage, isValidConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { createFsConversationStore } from '@cairn/store-fs';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import { fakeAgentExecutor } from './fake-agent-executor.js';
import {
  CLAUDE_CODE_FIXTURE,
  CLAUDE_CODE_SESSION_ID,
  describeDisplay,
  FAKE_AGENT,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  fixtureDisplayView,
  readArgvs,
  tempDir,
} from './support.js';

describe('a Claude Code run, end to end into a file store', () => {
  it('stores a valid log whose display view is the transcript, live and reloaded', async () => {
    const { store, executor } = await fakeAgentExecutor('claude-code', {
      FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE,
      FAKE_AGENT_CHUNKED: '1',
    });
    const live: ConversationMessage[] = [];
    const logged: ConversationMessage[] = [];
    const events: string[] = [];

    const result = await executor.run({
      prompt: FIXTURE_PROMPT,
      onEvent: (event) => events.push(event.type),
      onLogMessage: (message) => logged.push(message),
      onDisplayMessage: (message) => live.push(message),
    });

    expect(result).toMatchObject({
      success: true,
      exitCode: 0,
      signal: null,
      sessionId: CLAUDE_CODE_SESSION_ID,
      turns: 5,
      stderr: '',
    });
    expect(result.error).toBeUndefined();
    expect(result.conversationId).toMatch(/^agent-[0-9a-f-]{36}$/);
    expect(result.result).toMatch(/^Done\. I created hello\.txt/);
    expect(result.costUsd).toBeGreaterThanOrEqual(0);
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
    expect(events[0]).toBe('session_start');
    expect(events.at(-1)).toBe('session_result');

    const log = await store.load(result.conversationId);
    expect(log.every(isValidConversationMessage)).toBe(true);
    expect(log.map((message) => message.seq)).toEqual(log.map((_, index) => index + 1));
    expect(result.messages).toEqual(log);
    expect(logged).toEqual(log);
    expect(log[0]).toMatchObject({
      role: 'user',
      content: FIXTURE_PROMPT,
      mode: 'agent',
      runId: result.runId,
    });
    expect(log.every((message) => message.runId === result.runId && message.mode === 'agent')).toBe(true);
    // Protocol-shaped: every call answered by a tool message.
    const calls = log.flatMap((message) => message.tool_calls ?? []).map((call) => call.id);
    const answered = log.filter((message) => message.role === 'tool').map((message) => message.tool_call_id);
    expect(answered).toEqual(calls);
    expect(log.filter((message) => message.role === 'user')).toHaveLength(1);

    const display = toDisplayMessages(log);
    expect(live).toEqual(display);
    expect(describeDisplay(display)).toEqual(
      fixtureDisplayView(/^tool \(error\): Read does-not-exist\.txt — failed: File does not exist/),
    );
    const update = display[4]?.toolExecution?.details;
    expect(update?.type).toBe('diff');
    expect(update?.type === 'diff' && update.oldContent).toContain('Hello, world!');
    expect(update?.type === 'diff' && update.newContent).toContain('Hello, acceptance tests!');
    expect(display[5]?.toolExecution?.details).toMatchObject({ type: 'commandOutput', exitCode: 0 });

    // The raw transcript is kept byte for byte.
    expect(result.transcriptRef).toBe(`agent-transcripts/${result.conversationId}/${result.runId}.jsonl`);
    const transcript = Buffer.from(await store.getBlob(result.transcriptRef as string)).toString('utf8');
    expect(transcript).toBe(await readFile(CLAUDE_CODE_FIXTURE, 'utf8'));
    await store.close();
  });

  it('runs the agent with its arguments, working directory and environment', async () => {
    const dir = await tempDir();
    const argvFile = `${dir}/argv.jsonl`;
    const cwdFile = `${dir}/cwd.json`;
    const store = createFsConversationStore({ rootDir: await tempDir() });
    const cwd = await tempDir();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd,
      model: 'claude-sonnet-4-5',
      permissions: { mode: 'edit', allowedTools: ['Bash(npm test)'] },
      extraArgs: ['--max-turns', '3'],
      ...fakeAgentCommand({
        FAKE_AGENT_ARGV_FILE: argvFile,
        FAKE_AGENT_CWD_FILE: cwdFile,
        FAKE_AGENT_ENV_PROBE: 'probe-value',
      }),
    });
    const prompt = '- a prompt that looks like an option';
    const result = await executor.run({ prompt });

    // It printed nothing, not even its result line.
    expect(result.error?.message).toMatch(/^Claude Code ended without a result/);
    const [argv] = await readArgvs(argvFile);
    expect(argv).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'claude-sonnet-4-5',
      '--permission-mode=acceptEdits',
      '--allowedTools=Bash(npm test)',
      '--max-turns',
      '3',
      '--',
      prompt,
    ]);
    const seen = JSON.parse(await readFile(cwdFile, 'utf8'));
    expect(seen).toEqual({ cwd: await realpath(cwd), probe: 'probe-value' });
    // Nothing on stdout: the prompt alone is stored (and the missing result), and an empty transcript is kept.
    expect(result.messages.map((message) => message.errorCode ?? message.role)).toEqual([
      'user',
      'AGENT_FAILED',
    ]);
    expect((await store.getBlob(result.transcriptRef as string)).length).toBe(0);
    await store.close();
  });

  it('runs an executable by path, without a shell', async () => {
    // The checkout may not keep the executable bit.
    await chmod(FAKE_AGENT, 0o755);
    const store = createFsConversationStore({ rootDir: await tempDir() });
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      command: FAKE_AGENT,
      env: { FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE },
    });

    const result = await executor.run({ prompt: FIXTURE_PROMPT });

    expect(result).toMatchObject({ success: true, sessionId: CLAUDE_CODE_SESSION_ID });
    await store.close();
  });
});
