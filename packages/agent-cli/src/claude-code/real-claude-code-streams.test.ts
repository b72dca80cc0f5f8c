import { isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import {
  ofType,
  realStreams,
  recordedLine,
  recordedLines,
  STAND_IN_400_ERROR,
} from '../../test/real-stream-events.js';
import { createClaudeCodeConverter } from './create-claude-code-converter.js';

// Streams of the real Claude Code 2.1.197 (fixtures/real/claude-code, recorded by
// `pnpm fixtures:record` against the scripted stand-in of the API). What differs from one recording
// to the next (jittered retry delays, task ids, times, durations, file names) is read from the
// recorded lines, so a re-recording needs no edit here.
const { real, convert } = realStreams('claude-code', createClaudeCodeConverter);

interface UserLine {
  timestamp: string;
  parent_tool_use_id: string | null;
  message: { content: { type: string; text?: string; content?: unknown }[] };
}

describe('Claude Code API errors (real apierr: 500 retried, then 529 until the retries ran out)', () => {
  const events = convert(real('apierr'));

  it('produces only valid events', () => {
    expect(events.every(isAgentOutput)).toBe(true);
  });

  it('makes the synthetic assistant message the one error of the run, never model text', () => {
    expect(ofType(events, 'error')).toEqual([
      expect.objectContaining({
        code: 'LLM_UNAVAILABLE',
        // Once its retries ran out, the CLI words the status inside a sentence ("Repeated 529 …").
        message: expect.stringMatching(/^Repeated 529 Overloaded errors\. The API is at capacity/),
        retryable: true,
        fatal: true,
        raw: expect.stringMatching(/^API Error: Repeated 529 Overloaded errors\./),
        providerMetadata: { 'claude-code': { error: 'server_error', status: 529 } },
      }),
    ]);
    const texts = ofType(events, 'text').map((event) => event.text);
    expect(texts).toEqual(['Step one.', 'Step two.']);
    expect(texts.join('\n')).not.toContain('API Error');
  });

  it('puts the error after the text that came before it, and ends with the failed session result', () => {
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('text')).toBeLessThan(types.indexOf('error'));
    expect(ofType(events, 'session_result')).toEqual([
      expect.objectContaining({
        isError: true,
        subtype: 'success',
        // The CLI gives api_error_status null after its retries ran out (the status is in the text).
        providerMetadata: {
          'claude-code': {
            terminalReason: 'completed',
            stopReason: 'stop_sequence',
            modelUsage: {
              'claude-opus-4-8[1m]': expect.objectContaining({ inputTokens: 24, outputTokens: 32 }),
            },
          },
        },
      }),
    ]);
  });

  it('reports each api_retry line as a retry event, its jittered delay in whole milliseconds', () => {
    const delays = recordedLines<{ retry_delay_ms: number }>(real('apierr'), { subtype: 'api_retry' }).map(
      (line) => Math.round(line.retry_delay_ms),
    );
    expect(
      ofType(events, 'retry').map(({ attempt, maxAttempts, delayMs, status, error }) => ({
        attempt,
        maxAttempts,
        delayMs,
        status,
        error,
      })),
    ).toEqual([
      { attempt: 1, maxAttempts: 2, delayMs: delays[0], status: 500, error: 'server_error' },
      { attempt: 1, maxAttempts: 2, delayMs: delays[1], status: 529, error: 'overloaded' },
      { attempt: 2, maxAttempts: 2, delayMs: delays[2], status: 529, error: 'overloaded' },
    ]);
    expect(
      ofType(events, 'unknown').map((event) => (event.raw as { subtype?: string }).subtype),
    ).not.toContain('api_retry');
  });
});

describe('Claude Code 400 (real err400)', () => {
  const events = convert(real('err400'));

  it('maps it to LLM_BAD_REQUEST with the provider message, not the JSON body', () => {
    expect(ofType(events, 'error')).toEqual([
      expect.objectContaining({
        ...STAND_IN_400_ERROR,
        providerMetadata: { 'claude-code': { error: 'unknown', status: 400 } },
      }),
    ]);
    expect(ofType(events, 'text').map((event) => event.text)).toEqual(['Step one.']);
    expect(ofType(events, 'session_result')[0]?.providerMetadata?.['claude-code']).toMatchObject({
      apiErrorStatus: 400,
    });
  });

  it('maps the result line alone (as --output-format json gives it) the same way', () => {
    const result = real('err400').trim().split('\n').at(-1) ?? '';
    expect(ofType(convert(result), 'error')).toEqual([
      expect.objectContaining({ code: STAND_IN_400_ERROR.code, message: STAND_IN_400_ERROR.message }),
    ]);
  });
});

describe('Claude Code interrupted by SIGINT (real sigint-sleep)', () => {
  const events = convert(real('sigint-sleep'));

  it('reports the interruption line as a status, not as user input', () => {
    const interruption = recordedLines<UserLine>(real('sigint-sleep'), { type: 'user' }).find((line) =>
      line.message.content.some((block) => block.text === '[Request interrupted by user for tool use]'),
    );
    expect(ofType(events, 'user_message')).toEqual([]);
    expect(ofType(events, 'status')).toEqual([
      expect.objectContaining({
        status: 'interrupted',
        message: '[Request interrupted by user for tool use]',
        timestamp: interruption?.timestamp,
      }),
    ]);
  });

  it('keeps the ede_diagnostic out of the error message and in the metadata', () => {
    const [error] = ofType(events, 'error');
    expect(error).toMatchObject({
      code: 'LLM_ABORTED',
      message: 'Claude Code was interrupted while a tool was running',
      fatal: true,
    });
    expect(error?.message).not.toContain('ede_diagnostic');
    expect(ofType(events, 'session_result')[0]?.providerMetadata?.['claude-code']).toMatchObject({
      terminalReason: 'aborted_tools',
      stopReason: 'tool_use',
      errors: ['[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use'],
    });
  });
});

describe('Claude Code tasks and a sub-agent (real taskcreate-agent)', () => {
  const events = convert(real('taskcreate-agent'));
  const started = recordedLine<{ task_id: string }>(real('taskcreate-agent'), { subtype: 'task_started' });
  const running = recordedLine<{ usage: { duration_ms: number } }>(real('taskcreate-agent'), {
    subtype: 'task_progress',
  });
  const updated = recordedLine<{ patch: { end_time: number } }>(real('taskcreate-agent'), {
    subtype: 'task_updated',
  });
  const notified = recordedLine<{ usage: { duration_ms: number } }>(real('taskcreate-agent'), {
    subtype: 'task_notification',
  });

  it('produces only valid events and no unknown system lines', () => {
    expect(events.every(isAgentOutput)).toBe(true);
    const unknownSystem = ofType(events, 'unknown').filter(
      (event) =>
        (event.raw as { type?: string }).type === 'system' &&
        (event.raw as { subtype?: string }).subtype !== 'init',
    );
    expect(unknownSystem).toEqual([]);
  });

  it("shows the sub-agent's prompt as its task, not as something the user typed", () => {
    expect(ofType(events, 'user_message')).toEqual([]);
    const prompt = 'List the files in the working directory and report them. [scenario:sub]';
    const [subAgentPrompt] = recordedLines<UserLine>(real('taskcreate-agent'), {
      type: 'user',
      parent_tool_use_id: 'toolu_mock1_0',
    });
    expect(ofType(events, 'task_progress').filter((event) => event.prompt === prompt)).toEqual([
      expect.objectContaining({
        taskId: started.task_id,
        status: 'started',
        description: 'List the directory',
      }),
      expect.objectContaining({
        toolUseId: 'toolu_mock1_0',
        parentToolUseId: 'toolu_mock1_0',
        status: 'started',
        description: 'List the directory',
        timestamp: subAgentPrompt?.timestamp,
      }),
    ]);
  });

  it('turns the task_* lines into task progress, with the CLI times where it gives them', () => {
    const progress = ofType(events, 'task_progress').filter((event) => event.taskId !== undefined);
    expect(
      progress.map(({ status, lastToolName, summary, totalTokens, toolUses, durationMs }) => ({
        status,
        lastToolName,
        summary,
        totalTokens,
        toolUses,
        durationMs,
      })),
    ).toEqual([
      {
        status: 'started',
        lastToolName: undefined,
        summary: undefined,
        totalTokens: undefined,
        toolUses: undefined,
        durationMs: undefined,
      },
      {
        status: 'running',
        lastToolName: 'Bash',
        summary: undefined,
        totalTokens: 14,
        toolUses: 1,
        durationMs: running.usage.duration_ms,
      },
      {
        status: 'completed',
        lastToolName: undefined,
        summary: undefined,
        totalTokens: undefined,
        toolUses: undefined,
        durationMs: undefined,
      },
      {
        status: 'completed',
        lastToolName: undefined,
        summary: 'List the directory',
        totalTokens: 15,
        toolUses: 1,
        durationMs: notified.usage.duration_ms,
      },
    ]);
    // task_updated's end_time is the CLI's clock (epoch ms).
    expect(progress.map((event) => event.taskId)).toEqual(Array(4).fill(started.task_id));
    expect(progress[2]?.timestamp).toBe(new Date(updated.patch.end_time).toISOString());
    expect(progress[0]?.providerMetadata).toEqual({
      'claude-code': { taskType: 'local_agent', subagentType: 'general-purpose' },
    });
  });

  it('reports a repeated task notification once', () => {
    const lines = real('taskcreate-agent').split('\n');
    const notification = lines.find((line) => line.includes('"task_notification"')) ?? '';
    const twice = convert([notification, notification].join('\n'));
    expect(ofType(twice, 'task_progress')).toHaveLength(1);
  });

  it('names the sub-agent call Agent and the task tool TaskCreate', () => {
    expect(ofType(events, 'tool_use').map((event) => event.toolName)).toEqual([
      'TaskCreate',
      'Agent',
      'Bash',
    ]);
  });
});

describe('Claude Code task tools and a background command (real tasks)', () => {
  const events = convert(real('tasks'));
  // The id the Bash result's text gives the background command (the CLI picks a new one each run).
  const bashResult = ofType(events, 'tool_result').find((event) => event.toolUseId === 'toolu_mock4_0');
  const backgroundTaskId = /^Command running in background with ID: (\w+)\./.exec(
    bashResult?.output ?? '',
  )?.[1];

  it('calls every task tool, and the background command is a task whose stop is progress', () => {
    expect(events.every(isAgentOutput)).toBe(true);
    expect(backgroundTaskId).toMatch(/^\w+$/);
    expect(ofType(events, 'tool_use').map((event) => event.toolName)).toEqual([
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Bash',
      'TaskOutput',
      'TaskStop',
    ]);
    expect(
      ofType(events, 'task_progress').map(({ taskId, status, summary, providerMetadata }) => ({
        taskId,
        status,
        summary,
        providerMetadata,
      })),
    ).toEqual([
      {
        taskId: backgroundTaskId,
        status: 'started',
        summary: undefined,
        providerMetadata: { 'claude-code': { taskType: 'local_bash' } },
      },
      { taskId: backgroundTaskId, status: 'killed', summary: undefined, providerMetadata: undefined },
      {
        taskId: backgroundTaskId,
        status: 'stopped',
        summary: 'Sleep in the background',
        providerMetadata: undefined,
      },
    ]);
  });

  it('keeps the background task id of the Bash result', () => {
    expect(backgroundTaskId).toMatch(/^\w+$/);
    expect(bashResult?.structured).toMatchObject({ backgroundTaskId });
  });
});

describe('Claude Code Bash output over its limit (real bigout)', () => {
  const events = convert(real('bigout'));

  it('keeps the note that the output was cut and where it is, with the persisted path', () => {
    const [result] = ofType(events, 'tool_result');
    expect(result?.output).toMatch(
      /^<persisted-output>\nOutput too large \(77KB\)\. Full output saved to: \//,
    );
    // The saved file's name is the CLI's own pick for each run: the structured path is the text's.
    const savedTo = /Full output saved to: (\S+\/tool-results\/\w+\.txt)\n/.exec(result?.output ?? '')?.[1];
    expect(savedTo).toBeDefined();
    expect(result?.structured).toMatchObject({
      persistedOutputPath: savedTo,
      persistedOutputSize: 78894,
    });
    expect((result?.structured as { stdout?: string } | undefined)?.stdout).toHaveLength(30_000);
  });
});
