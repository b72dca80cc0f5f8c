import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelSummarizer } from '@cairn/compression';
import type { ResolvedModel } from '@cairn/connect';
import type { ModelMessage } from '@cairn/core';
import { chatToolLoop, createToolHost, type LoopToolMessage } from '@cairn/loop';
import { createWorkspaceTools, type RunCommandResult } from '@cairn/loop/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoModel } from './demo-model.js';
import {
  createSampleWorkspace,
  SAMPLE_FIXED_LINE,
  SAMPLE_SOURCE_PATH,
  SAMPLE_TEST_COMMAND,
} from './sample-workspace.js';

describe('the demo model, end to end through the real tool loop', () => {
  let root: string;
  let model: ResolvedModel;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cairn-demo-'));
    model = await startDemoModel({ chunkDelayMs: 0 });
  });
  afterEach(async () => {
    await model.close();
    await rm(root, { recursive: true, force: true });
  });

  async function tour(messages: ModelMessage[], approve: () => boolean) {
    const toolMessages: LoopToolMessage[] = [];
    let textDeltas = 0;
    const result = await chatToolLoop({
      model: model.adapter,
      tools: createToolHost(createWorkspaceTools({ root })),
      messages,
      approve,
      onToolMessage: (message) => {
        toolMessages.push(message);
      },
      onEvent: (event) => {
        if (event.type === 'text_delta') textDeltas++;
      },
    });
    return { result, toolMessages, textDeltas, answer: result.message?.content ?? '' };
  }

  it('fixes the file, runs the tests that still fail, and says so', async () => {
    await createSampleWorkspace(root);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Show me what you can do.' }];
    const { result, toolMessages, textDeltas, answer } = await tour(messages, () => true);

    expect(result.success).toBe(true);
    expect(toolMessages.map((message) => [message.toolName, message.isError])).toEqual([
      ['read_file', false],
      ['edit_file', false],
      ['list_dir', false],
      ['run_command', true],
    ]);
    expect(await readFile(join(root, SAMPLE_SOURCE_PATH), 'utf8')).toContain(SAMPLE_FIXED_LINE);
    const run = toolMessages[3]?.structured as RunCommandResult;
    expect(run.exitCode).toBe(1);
    expect(answer).toContain(`\`${SAMPLE_TEST_COMMAND}\` failed with exit code 1: “`);
    expect(answer).toContain('shout says it loudly');
    expect(answer).toContain('That is the second bug');
    expect(textDeltas).toBeGreaterThan(10);

    // A second message in the same conversation: the demo says what it is.
    messages.push({ role: 'user', content: 'Now fix shout.' });
    const second = await tour(messages, () => true);
    expect(second.toolMessages).toEqual([]);
    expect(second.answer).toContain('You asked “Now fix shout.”');

    // /compress: the summariser gets a summary built from the conversation.
    const summary = await createModelSummarizer(model.adapter).summarize({ messages });
    expect(summary).toContain('## Work done');
    expect(summary).toContain(`- run_command({"command":"${SAMPLE_TEST_COMMAND}"}) → error: Exit code 1`);
  });

  it('reports a command the user refused, without running it', async () => {
    await createSampleWorkspace(root);
    const { toolMessages, answer } = await tour([{ role: 'user', content: 'Go.' }], () => false);
    const run = toolMessages.find((message) => message.toolName === 'run_command');
    expect(run).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
    expect(answer).toContain(
      `\`${SAMPLE_TEST_COMMAND}\` did not happen: “The user did not approve running run_command.”`,
    );
    expect(answer).not.toContain('exit code');
  });

  it('stops at once outside the sample project', async () => {
    const { toolMessages, answer } = await tour([{ role: 'user', content: 'Go.' }], () => true);
    expect(toolMessages.map((message) => message.toolName)).toEqual(['read_file']);
    expect(answer).toContain('so I stopped rather than change anything');
  });
});
