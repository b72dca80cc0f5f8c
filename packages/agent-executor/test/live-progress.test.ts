import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@cairn/core';
import { LiveDisplay, toDisplayMessages } from '@cairn/message-processor';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import { fakeAgentCommand, tempDir } from './support.js';

// The real Claude Code capture of `sleep 30` (init, text, the Bash call, then what C-c gave).
const SLEEP_FIXTURE = fileURLToPath(
  new URL('../../agent-cli/fixtures/real/claude-code/sigint-sleep.jsonl', import.meta.url),
);

describe('live progress of a run', () => {
  it('shows the text and the call running while the tool runs, then the stored execution in its place', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      // The agent prints the call and hangs, as Claude Code does while `sleep 30` runs.
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: SLEEP_FIXTURE, FAKE_AGENT_LINES: '3', FAKE_AGENT_HANG: '1' }),
    });
    const controller = new AbortController();
    const shown: ConversationMessage[] = [];
    const display = new LiveDisplay((message) => {
      shown.push(message);
      // The only way out of this run is the abort: what was shown before came while the tool ran.
      if (message.toolExecution?.status === 'running') controller.abort();
    });
    const result = await executor.run({
      prompt: 'Wait.',
      signal: controller.signal,
      onDisplayMessage: display.logged,
      onLiveDisplayMessage: display.live,
    });
    const line = (message: ConversationMessage) =>
      `${message.toolExecution?.status ?? message.partType ?? message.role}: ${message.content}`;
    expect(shown.map(line)).toEqual([
      'user: Wait.',
      'assistant: Waiting a while.',
      'running: Running Bash: sleep 30',
      'unfinished: Bash did not finish',
      'error: The run was aborted',
    ]);
    // The running call and the execution that replaced it are one display message.
    expect(shown[3]?.id).toBe(shown[2]?.id);
    expect(result.error?.code).toBe('LLM_ABORTED');
    // The log has no trace of the running state: a reload shows the final view.
    const log = await store.load(result.conversationId);
    expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(toDisplayMessages(log).map(line)).toEqual(shown.filter((_, index) => index !== 2).map(line));
  });
});
