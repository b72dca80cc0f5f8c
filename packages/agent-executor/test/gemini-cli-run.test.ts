import { type ConversationMessage, isValidConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { createFsConversationStore } from '@cairn/store-fs';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import {
  describeDisplay,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  fixtureDisplayView,
  fixtureRecordedIn,
  GEMINI_CLI_FIXTURE,
  GEMINI_CLI_SESSION_ID,
  readArgvs,
  tempDir,
} from './support.js';

describe('a Gemini CLI run, end to end into a file store', () => {
  it('stores the prompt once (not its echo) and gives the same display shape', async () => {
    const store = createFsConversationStore({ rootDir: await tempDir() });
    const argvFile = `${await tempDir()}/argv.jsonl`;
    // Gemini CLI does not report its working directory, so the transcript is replayed as if it
    // had been recorded in this run's cwd (the executor records that one).
    const cwd = await tempDir();
    const fixture = await fixtureRecordedIn(GEMINI_CLI_FIXTURE, cwd);
    const executor = createAgentExecutor({
      store,
      agent: 'gemini-cli',
      cwd,
      model: 'gemini-2.5-pro',
      ...fakeAgentCommand({
        FAKE_AGENT_FIXTURE: fixture,
        FAKE_AGENT_DELAY_MS: '2',
        FAKE_AGENT_ARGV_FILE: argvFile,
      }),
    });
    const live: ConversationMessage[] = [];
    const echoed: string[] = [];

    const result = await executor.run({
      prompt: FIXTURE_PROMPT,
      onEvent: (event) => {
        if (event.type === 'user_message') echoed.push(event.text);
      },
      onDisplayMessage: (message) => live.push(message),
    });

    expect(result).toMatchObject({ success: true, exitCode: 0, sessionId: GEMINI_CLI_SESSION_ID });
    expect(result.result).toMatch(/^Done\. I created hello\.txt/);
    // The echo reaches onEvent (it is the CLI's output) but is not stored a second time.
    expect(echoed).toEqual([FIXTURE_PROMPT]);
    const log = await store.load(result.conversationId);
    expect(log.every(isValidConversationMessage)).toBe(true);
    expect(log.filter((message) => message.role === 'user')).toHaveLength(1);

    const display = toDisplayMessages(log);
    expect(live).toEqual(display);
    expect(describeDisplay(display)).toEqual(fixtureDisplayView(/^tool \(error\): .*failed: File not found/));

    const [argv] = await readArgvs(argvFile);
    expect(argv).toEqual([
      `--prompt=${FIXTURE_PROMPT}`,
      '--output-format',
      'stream-json',
      '-m',
      'gemini-2.5-pro',
    ]);
    await store.close();
  });
});
