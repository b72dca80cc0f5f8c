import { describe, expect, it } from 'vitest';
import { captureStream, plainColors, textMessage } from '../render/test-support.js';
import { LiveAgentOutput } from './live-agent-output.js';

function shown(markdown: boolean): string {
  const out = captureStream();
  const live = new LiveAgentOutput({ out, colors: plainColors, markdown });
  live.listeners.onDisplayMessage?.(textMessage('u1', 'user', 'Fix it'));
  live.listeners.onDisplayMessage?.(textMessage('a1', 'assistant', '## Fixed\n- `notes.txt`'));
  live.end();
  return out.text;
}

describe('LiveAgentOutput', () => {
  it("renders the agent's answer as Markdown when asked, as it is otherwise", () => {
    expect(shown(true)).toBe('## Fixed\n  • `notes.txt`\n');
    expect(shown(false)).toBe('## Fixed\n- `notes.txt`\n');
  });
});

describe('LiveAgentOutput status lines', () => {
  const timestamp = '2026-11-26T11:55:07.384Z';

  function shownFor(
    events: Parameters<NonNullable<LiveAgentOutput['listeners']['onEvent']>>[0][],
    verbose = false,
  ) {
    const out = captureStream();
    const live = new LiveAgentOutput({ out, colors: plainColors, verbose });
    for (const event of events) live.listeners.onEvent?.(event);
    live.end();
    return out.text;
  }

  it('shows a retry of the model request with its attempt, delay and cause', () => {
    expect(
      shownFor([
        {
          type: 'retry',
          timestamp,
          attempt: 2,
          maxAttempts: 2,
          delayMs: 1209,
          status: 529,
          error: 'overloaded',
        },
        { type: 'retry', timestamp, attempt: 3, status: 503 },
      ]),
    ).toBe(
      '↻ Retrying the model request (retry 2 of 2) in 1.2 s after 529 overloaded\n' +
        '↻ Retrying the model request (retry 3) after 503\n',
    );
  });

  it('shows a sub-agent starting and finishing, and its progress only when verbose', () => {
    const events = [
      {
        type: 'task_progress',
        timestamp,
        taskId: 'a1',
        status: 'started',
        description: 'List the directory',
      },
      { type: 'task_progress', timestamp, toolUseId: 't1', status: 'started', prompt: 'List the files' },
      {
        type: 'task_progress',
        timestamp,
        taskId: 'a1',
        status: 'running',
        description: 'Running ls',
        lastToolName: 'Bash',
      },
      { type: 'task_progress', timestamp, taskId: 'a1', status: 'completed' },
      {
        type: 'task_progress',
        timestamp,
        taskId: 'a1',
        status: 'completed',
        summary: 'List the directory',
        durationMs: 825,
      },
    ] as const;
    expect(shownFor([...events])).toBe(
      '▸ Started: List the directory\n▪ Completed in 825 ms: List the directory\n',
    );
    expect(shownFor([...events], true)).toContain('… Running ls (last tool: Bash)\n');
  });

  it('shows the interruption as a status line', () => {
    expect(
      shownFor([
        {
          type: 'status',
          timestamp,
          status: 'interrupted',
          message: '[Request interrupted by user for tool use]',
        },
        { type: 'status', timestamp, status: 'requesting', message: 'requesting' },
      ]),
    ).toBe('⏹ [Request interrupted by user for tool use]\n');
  });
});
