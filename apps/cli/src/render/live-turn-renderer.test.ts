import type { AgentOutput, ConversationMessage } from '@cairn/core';
import type { RunStepChangedEvent, RuntimeEvent } from '@cairn/runtime';
import { describe, expect, it } from 'vitest';
import { createLiveTurnRenderer } from './live-turn-renderer.js';
import type { Spinner } from './spinner.js';
import {
  ansiColors,
  type CapturedStream,
  captureStream,
  editAndFailedTestLog,
  persisted,
  plainColors,
  textMessage,
  toolCallMessage,
} from './test-support.js';

const timestamp = '2025-01-24T10:00:00.000Z';
type LiveEvent = AgentOutput | RuntimeEvent | RunStepChangedEvent;

const delta = (text: string): LiveEvent => ({ type: 'text_delta', timestamp, id: 'b1', delta: text });
const toolUse = (id: string, toolName: string): LiveEvent => ({
  type: 'tool_use',
  timestamp,
  id: `call_${id}`,
  toolName,
  input: {},
});
const finishCall: LiveEvent = { type: 'finish', timestamp, reason: 'stop' };

/** A spinner that marks in the output where it shows (`<spin>`) and where it is cleared (`</spin>`). */
function markingSpinner(stream: CapturedStream): Spinner {
  let active = false;
  return {
    start() {
      if (!active) stream.write('<spin>');
      active = true;
    },
    stop() {
      if (active) stream.write('</spin>');
      active = false;
    },
    get active() {
      return active;
    },
  };
}

/**
 * The turn of `editAndFailedTestLog` as the runtime reports it: the first model call streams its
 * text, the later ones (a non-streaming model) do not.
 */
function editAndFailedTestTurn(): LiveEvent[] {
  const [user, edit, editResult, test, testResult, answer] = editAndFailedTestLog() as [
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
  ];
  return [
    persisted(user),
    delta('Editing '),
    delta('src/a.ts.'),
    toolUse('a1', 'edit_file'),
    finishCall,
    persisted(edit),
    { type: 'tool_result', timestamp, toolUseId: 'call_a1', output: 'Updated src/a.ts', isError: false },
    persisted(editResult),
    toolUse('a2', 'run_command'),
    finishCall,
    persisted(test),
    persisted(testResult),
    { type: 'text', timestamp, id: 'b3', text: 'The test expects x to be 2.' },
    finishCall,
    persisted(answer),
  ];
}

function render(events: LiveEvent[], options: { colors?: typeof plainColors; spinner?: boolean } = {}) {
  const out = captureStream();
  const renderer = createLiveTurnRenderer({
    out,
    colors: options.colors ?? plainColors,
    cwd: '/repo',
    ...(options.spinner ? { spinner: markingSpinner(out) } : {}),
  });
  for (const event of events) renderer.onEvent(event);
  renderer.finish();
  return out.text;
}

describe('createLiveTurnRenderer', () => {
  it('streams text, prints each tool call once as one merged line, and prints text that was not streamed', () => {
    expect(render(editAndFailedTestTurn())).toBe(
      [
        'Editing src/a.ts.',
        '✓ Updated src/a.ts (12ms)',
        '    @@ -1,2 +1,2 @@',
        '    -let x = 1;',
        '    +const x = 1;',
        '     export { x };',
        '✗ Command `npm test` failed: Exit code 1 (2.3s)',
        '    running 1 test',
        '    FAIL src/a.test.ts',
        '    expected 2, received 1',
        '    exit code 1',
        'The test expects x to be 2.',
        '',
      ].join('\n'),
    );
  });

  it('clears the spinner before every write and runs it while the model or a tool works', () => {
    const output = render(editAndFailedTestTurn(), { spinner: true });
    expect(output).toBe(
      [
        '<spin></spin>Editing src/a.ts.\n<spin></spin>✓ Updated src/a.ts (12ms)\n',
        '    @@ -1,2 +1,2 @@\n    -let x = 1;\n    +const x = 1;\n     export { x };\n',
        '<spin></spin>✗ Command `npm test` failed: Exit code 1 (2.3s)\n',
        '    running 1 test\n    FAIL src/a.test.ts\n    expected 2, received 1\n    exit code 1\n',
        '<spin></spin>The test expects x to be 2.\n<spin></spin>',
      ].join(''),
    );
  });

  it('streams reasoning dim and does not print it again when its message is stored', () => {
    const out = captureStream();
    const renderer = createLiveTurnRenderer({ out, colors: ansiColors });
    renderer.onEvent({ type: 'reasoning_delta', timestamp, id: 'r1', delta: 'Plan: answer.' });
    renderer.onEvent(delta('Hi'));
    renderer.onEvent(
      persisted({
        ...textMessage('a1', 'assistant', 'Hi'),
        reasoning: [{ text: 'Plan: answer.' }],
      }),
    );
    renderer.finish();
    expect(out.text).toBe(`${ansiColors.dim('Plan: answer.')}\nHi\n`);
  });

  it('reports compression and workflow steps, and the stored error instead of the error event', () => {
    const error: ConversationMessage = {
      ...textMessage('e1', 'assistant', 'Rate limited'),
      partType: 'error',
      errorCode: 'LLM_RATE_LIMITED',
    };
    const output = render([
      {
        type: 'runtime',
        event: 'compression_applied',
        conversationId: 'c1',
        compressed: true,
        tokensBefore: 12_345,
        tokensAfter: 6_789,
        steps: ['summarize'],
      },
      {
        type: 'runtime',
        event: 'run_step_changed',
        runId: 'r1',
        conversationId: 'c1',
        from: 'plan',
        to: 'build',
        status: 'active',
      },
      {
        type: 'runtime',
        event: 'run_step_changed',
        runId: 'r1',
        conversationId: 'c1',
        from: 'build',
        to: 'build',
        status: 'completed',
      },
      {
        type: 'error',
        timestamp,
        code: 'LLM_RATE_LIMITED',
        message: 'Rate limited',
        retryable: true,
        fatal: true,
      },
      persisted(error),
    ]);
    expect(output).toBe(
      [
        'context compressed: 12,345 → 6,789 tokens',
        'step plan → build',
        'step build → build, workflow completed',
        '✗ Error (LLM_RATE_LIMITED): Rate limited',
        '',
      ].join('\n'),
    );
  });

  it('renders streamed Markdown line by line, and does not print it again when its message is stored', () => {
    const out = captureStream();
    const renderer = createLiveTurnRenderer({ out, colors: plainColors, markdown: true });
    renderer.onEvent(delta('#'));
    expect(out.text).toBe('');
    renderer.onEvent(delta(' Title\n- one\n- tw'));
    expect(out.text).toBe('# Title\n  • one\n  • tw');
    renderer.onEvent(delta('o\n```sh\nnpm test'));
    renderer.onEvent(persisted(textMessage('a1', 'assistant', '# Title\n- one\n- two\n```sh\nnpm test')));
    renderer.finish();
    expect(out.text).toBe('# Title\n  • one\n  • two\n  sh\n  npm test\n');
  });

  it('renders a stored answer that was not streamed as Markdown too', () => {
    const out = captureStream();
    const renderer = createLiveTurnRenderer({ out, colors: plainColors, markdown: true });
    renderer.onEvent(persisted(textMessage('a1', 'assistant', '## Done\n* checked')));
    renderer.finish();
    expect(out.text).toBe('## Done\n  • checked\n');
  });

  it('keeps the spinner while a held line streams, and clears it before the line is shown', () => {
    const out = captureStream();
    const renderer = createLiveTurnRenderer({
      out,
      colors: plainColors,
      markdown: true,
      spinner: markingSpinner(out),
    });
    renderer.onEvent(delta('| a |\n|---|\n| 1 |'));
    expect(out.text).toBe('<spin>');
    renderer.finish();
    expect(out.text).toBe('<spin></spin>a\n─\n1\n');
  });

  it('says what the spinner waits for: the model by name, or the tool and what it works on', () => {
    const out = captureStream();
    const texts: (string | undefined)[] = [];
    const spinner = markingSpinner(out);
    const recording: Spinner = {
      // What it says: starting it again with the same text changes nothing.
      start(text) {
        if (texts.at(-1) !== text) texts.push(text);
        spinner.start(text);
      },
      stop: () => spinner.stop(),
      get active() {
        return spinner.active;
      },
    };
    const [, , , test, testResult] = editAndFailedTestLog() as ConversationMessage[];
    const renderer = createLiveTurnRenderer({
      out,
      colors: plainColors,
      cwd: '/repo',
      spinner: recording,
      modelLabel: 'gpt-test',
    });
    renderer.onEvent({ ...toolUse('a2', 'run_command'), input: { command: 'npm test' } } as LiveEvent);
    renderer.onEvent(persisted(test as ConversationMessage));
    renderer.onEvent(persisted(testResult as ConversationMessage));
    renderer.finish();
    expect(texts).toEqual([
      'waiting for gpt-test…',
      'running run_command npm test…',
      'waiting for gpt-test…',
    ]);
  });

  it('ends a streamed line and shows a call left without a result as unfinished when the turn ends', () => {
    const output = render([
      delta('Let me look'),
      persisted(toolCallMessage('a1', 'read_file', { path: 'a.ts' })),
    ]);
    expect(output).toBe('Let me look\n… read_file did not finish\n');
  });
});
