import { isValidConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { describe, expect, it } from 'vitest';
import { describeDisplay, mainShortDisplayView, readArgvs, replayRealRuns } from './support.js';

// Real Qwen Code 0.15.10 runs (agent-cli's fixtures/real), replayed by the fake agent.
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';

describe('a Qwen Code run, end to end into a store', () => {
  it('stores the session with its tools described and resumes it with --resume=<id>', async () => {
    const { store, argvFile, firstLine, run } = await replayRealRuns('qwen-code', { extraArgs: ['--yolo'] });
    const sessionId = firstLine.session_id;

    const first = await run('main', { prompt: PROMPT });
    expect(first).toMatchObject({ success: true, sessionId, result: 'Done: hello.txt says Hello, Cairn!' });
    await run('resume2', { prompt: 'Still there?', conversationId: first.conversationId, resume: true });

    const log = await store.load(first.conversationId);
    expect(log.every(isValidConversationMessage)).toBe(true);
    expect(describeDisplay(toDisplayMessages(log)).slice(0, 9)).toEqual(
      mainShortDisplayView(PROMPT, { readFailure: 'File not found' }),
    );
    expect(await readArgvs(argvFile)).toEqual([
      [`--prompt=${PROMPT}`, '--output-format', 'stream-json', '--yolo'],
      ['--prompt=Still there?', '--output-format', 'stream-json', `--resume=${sessionId}`, '--yolo'],
    ]);
  });

  it('fails a run whose model call failed, though Qwen Code reports success', async () => {
    const { store, run } = await replayRealRuns('qwen-code');
    const result = await run('err400', { prompt: 'Say hi.' });
    expect(result.success).toBe(false);
    expect(result.error).toMatchObject({ code: 'LLM_BAD_REQUEST', message: 'mock: this request is invalid' });
    // Stored once, as the run's error part, never as if the model had said it.
    const stored = await store.load(result.conversationId);
    expect(stored.filter((message) => message.partType === 'error')).toEqual([
      expect.objectContaining({ role: 'assistant', content: 'mock: this request is invalid' }),
    ]);
    expect(stored.filter((message) => JSON.stringify(message).includes('[API Error'))).toEqual([]);
  });
});
