import { readFileSync } from 'node:fs';
import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import { definedFields } from '@cairn/core';
import { createMessageProcessor } from '@cairn/message-processor';
import { describe, expect, it } from 'vitest';
import { type CapturedStream, captureStream, plainColors, textMessage } from '../render/test-support.js';
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

// The real Claude Code capture of `sleep 30`, interrupted with C-c 2 s in (see
// `@cairn/agent-cli` fixtures/real), through the converter and processor as `cairn agent` runs it.
const SLEEP_LINES = readFileSync(
  new URL('../../../../packages/agent-cli/fixtures/real/claude-code/sigint-sleep.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter(Boolean);
const TOOL_USE_LINE = SLEEP_LINES.findIndex((line) => line.includes('"tool_use"'));

function replay(out: CapturedStream) {
  const live = new LiveAgentOutput({ out, colors: plainColors });
  const processor = createMessageProcessor({
    onLogMessage: () => {},
    ...definedFields({
      onDisplayMessage: live.listeners.onDisplayMessage,
      onLiveDisplayMessage: live.listeners.onLiveDisplayMessage,
    }),
  });
  const converter = createClaudeCodeConverter();
  const push = (lines: string[]) => {
    for (const line of lines) for (const event of converter.push(line)) processor.push(event);
  };
  push(SLEEP_LINES.slice(0, TOOL_USE_LINE + 1));
  const whileRunning = out.text;
  push(SLEEP_LINES.slice(TOOL_USE_LINE + 1));
  processor.end();
  live.end();
  return { whileRunning, after: out.text.slice(whileRunning.length) };
}

// What a terminal shows for `text`: line feeds, carriage returns, cursor up (`ESC[nA`) and erase
// to the end of the screen (`ESC[J`) — the sequences the live output writes.
function screen(text: string): string[] {
  const rows: string[] = [''];
  let row = 0;
  const esc = String.fromCharCode(0x1b);
  const sequences = new RegExp(`(\r|\n|${esc}\\[\\d*A|${esc}\\[J)`);
  for (const part of text.split(sequences)) {
    if (part === '\n') {
      row++;
      rows[row] ??= '';
    } else if (part === '\r') {
      // Writes below always start a fresh row here; nothing to move.
    } else if (part.startsWith('\u001b[') && part.endsWith('A')) {
      row = Math.max(0, row - Number(part.slice(2, -1) || 1));
    } else if (part === '\u001b[J') {
      rows.length = row + 1;
      rows[row] = '';
    } else rows[row] += part;
  }
  return rows;
}

describe('LiveAgentOutput: a tool call while it runs', () => {
  it('not on a terminal: the text and a running line at once, then the finished call', () => {
    const { whileRunning, after } = replay(captureStream());
    expect(whileRunning).toBe('Waiting a while.\n▸ Running Bash: sleep 30\n');
    expect(after).toMatch(/^✗ Command `sleep 30` failed: /);
    expect(after).not.toContain('Waiting a while.');
  });

  it('on a terminal: the running line is replaced in place by the finished call', () => {
    const out = captureStream({ isTTY: true, columns: 60 });
    const { whileRunning, after } = replay(out);
    expect(screen(whileRunning)).toEqual(['Waiting a while.', '▸ Running Bash: sleep 30', '']);
    expect(after.startsWith('\r\u001b[1A\u001b[J✗ Command `sleep 30` failed')).toBe(true);
    const rows = screen(out.text);
    expect(rows[0]).toBe('Waiting a while.');
    expect(rows[1]).toMatch(/^✗ Command `sleep 30` failed: /);
    expect(rows.join('\n')).not.toContain('Running');
  });

  it('parallel calls on a terminal: both run at the bottom, each finished call takes a running line', () => {
    const out = captureStream({ isTTY: true, columns: 60 });
    const live = new LiveAgentOutput({ out, colors: plainColors });
    const timestamp = '2026-11-26T12:00:00.000Z';
    const processor = createMessageProcessor({
      onLogMessage: () => {},
      // A still clock: no durations in the lines.
      now: () => 0,
      ...definedFields({
        onDisplayMessage: live.listeners.onDisplayMessage,
        onLiveDisplayMessage: live.listeners.onLiveDisplayMessage,
      }),
    });
    processor.push({ type: 'text', timestamp, id: 'b', messageId: 'm', text: 'Both.' });
    processor.push({
      type: 'tool_use',
      timestamp,
      id: 'A',
      messageId: 'm',
      toolName: 'Bash',
      input: { command: 'sleep 2' },
    });
    processor.push({
      type: 'tool_use',
      timestamp,
      id: 'B',
      messageId: 'm',
      toolName: 'Bash',
      input: { command: 'sleep 1' },
    });
    expect(screen(out.text)).toEqual(['Both.', '▸ Running Bash: sleep 2', '▸ Running Bash: sleep 1', '']);
    processor.push({ type: 'tool_result', timestamp, toolUseId: 'B', output: '', isError: false });
    expect(screen(out.text)).toEqual(['Both.', '✓ Ran `sleep 1`', '▸ Running Bash: sleep 2', '']);
    processor.push({ type: 'tool_result', timestamp, toolUseId: 'A', output: '', isError: false });
    processor.end();
    live.end();
    expect(screen(out.text)).toEqual(['Both.', '✓ Ran `sleep 1`', '✓ Ran `sleep 2`', '']);
  });
});
