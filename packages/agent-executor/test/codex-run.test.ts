import { isValidConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { describe, expect, it } from 'vitest';
import { describeDisplay, mainShortDisplayView, readArgvs, replayRealRuns } from './support.js';

// Real Codex CLI 0.171.0 runs (agent-cli's fixtures/real), replayed by the fake agent.
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';

describe('a Codex CLI run, end to end into a store', () => {
  it('stores the session, describes its tools, and resumes the thread with exec resume', async () => {
    const { store, argvFile, firstLine, run } = await replayRealRuns('codex', { model: 'gpt-5.5' });
    const threadId = firstLine.thread_id;

    const first = await run('main', { prompt: PROMPT });
    expect(first).toMatchObject({ success: true, exitCode: 0, sessionId: threadId });
    expect(first.result).toBe('Done: hello.txt says Hello, Cairn!');
    expect(first.text).toBe(first.result);
    const second = await run('resume2', {
      prompt: 'Is hello.txt still there?',
      conversationId: first.conversationId,
      resume: true,
    });
    expect(second).toMatchObject({
      success: true,
      sessionId: threadId,
      result: 'hello.txt still greets Cairn.',
    });

    const log = await store.load(first.conversationId);
    expect(log.every(isValidConversationMessage)).toBe(true);
    // Both runs number their items from item_0: each run's tool calls still pair with their own results.
    expect(describeDisplay(toDisplayMessages(log))).toEqual([
      ...mainShortDisplayView(PROMPT, {
        reasoning: 'Create the file first.',
        readFailure: 'cat: does-not-exist.txt: No such file or directory',
      }),
      'user: Is hello.txt still there?',
      'assistant: This request carried 18 messages. Reading hello.txt again.',
      'tool: Read hello.txt',
      'assistant: hello.txt still greets Cairn.',
    ]);
    expect(await readArgvs(argvFile)).toEqual([
      ['exec', '--json', '--model', 'gpt-5.5', '--', PROMPT],
      ['exec', 'resume', threadId, '--json', '--model', 'gpt-5.5', '--', 'Is hello.txt still there?'],
    ]);
  });

  it('reports a failed turn as a failed run with its classified error', async () => {
    const { store, run } = await replayRealRuns('codex');
    const result = await run('err400', { prompt: 'Say hi.' }, { FAKE_AGENT_EXIT_CODE: '1' });
    expect(result.success).toBe(false);
    const log = await store.load(result.conversationId);
    expect(
      log.some((message) => message.partType === 'error' && message.errorCode === 'LLM_BAD_REQUEST'),
    ).toBe(true);
  });
});
