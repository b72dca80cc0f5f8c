import type { ConversationMessage, ToolExecutionMetadata } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { describe, expect, it } from 'vitest';
import { renderDisplayMessage } from './render-display-message.js';
import {
  ANSI,
  ansiColors,
  approvalRecords,
  editAndFailedTestLog,
  plainColors,
  toolCallMessage,
  toolResultMessage,
} from './test-support.js';

const plain = { colors: plainColors };
const createdAt = '2025-01-24T10:00:00.000Z';

function execution(fields: Partial<ToolExecutionMetadata>): ConversationMessage {
  const toolExecution: ToolExecutionMetadata = {
    toolName: 'run_command',
    toolUseId: 'call_1',
    input: {},
    output: '',
    isError: false,
    durationMs: 0,
    summary: 'Ran `make`',
    ...fields,
  };
  return { id: 'x', role: 'assistant', createdAt, partType: 'tool_execution', toolExecution };
}

function commandRun(stdout: string, exitCode: number | null, isError = exitCode !== 0) {
  return execution({
    isError,
    summary: 'Command `make` failed',
    details: { type: 'commandOutput', stdout, stderr: '', exitCode },
  });
}

describe('renderDisplayMessage', () => {
  const [user, text, edit, failedTest, answer] = toDisplayMessages(editAndFailedTestLog(), {
    cwd: '/repo',
  }) as [
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
    ConversationMessage,
  ];

  it('prefixes what the user typed and prints the assistant text as it is', () => {
    expect(renderDisplayMessage(user, plain)).toBe('› Make x a const and run the tests.\n');
    expect(renderDisplayMessage({ ...user, content: 'one\ntwo' }, plain)).toBe('› one\n  two\n');
    expect(renderDisplayMessage(text, plain)).toBe('Editing src/a.ts.\n');
    expect(renderDisplayMessage(answer, plain)).toBe('The test expects x to be 2.\n');
    expect(renderDisplayMessage({ ...answer, content: 'ends\n' }, plain)).toBe('ends\n');
  });

  it('renders the assistant text as Markdown when asked, as the live turn did', () => {
    const text = '# Plan\n- read `a.ts`\n- **fix** it';
    expect(renderDisplayMessage({ ...answer, content: text }, { ...plain, markdown: true })).toBe(
      '# Plan\n  • read `a.ts`\n  • fix it\n',
    );
    expect(renderDisplayMessage({ ...answer, content: text }, plain)).toBe(`${text}\n`);
    // What the user typed is never rendered.
    expect(renderDisplayMessage({ ...user, content: '# not a heading' }, { ...plain, markdown: true })).toBe(
      '› # not a heading\n',
    );
  });

  it('shows an edit as one line with its diff, without the file headers', () => {
    expect(renderDisplayMessage(edit, plain)).toBe(
      '✓ Updated src/a.ts (12ms)\n    @@ -1,2 +1,2 @@\n    -let x = 1;\n    +const x = 1;\n     export { x };\n',
    );
  });

  it('shows a failed command with the end of its output and its exit code', () => {
    expect(renderDisplayMessage(failedTest, plain)).toBe(
      [
        '✗ Command `npm test` failed: Exit code 1 (2.3s)',
        '    running 1 test',
        '    FAIL src/a.test.ts',
        '    expected 2, received 1',
        '    exit code 1',
        '',
      ].join('\n'),
    );
  });

  it('keeps the last 10 lines of a failed command, or all of them when verbose', () => {
    const lines = Array.from({ length: 15 }, (_, index) => `line ${index + 1}`).join('\n');
    const shown = renderDisplayMessage(commandRun(lines, 2), plain).split('\n');
    expect(shown.slice(0, 3)).toEqual(['✗ Command `make` failed', '    … 5 earlier lines', '    line 6']);
    expect(shown.at(-2)).toBe('    exit code 2');
    const verbose = renderDisplayMessage(commandRun(lines, 2), { ...plain, verbose: true });
    expect(verbose).toContain('    line 1\n');
    expect(verbose).not.toContain('earlier lines');
    expect(renderDisplayMessage(commandRun('', null), plain)).toBe(
      '✗ Command `make` failed\n    stopped without an exit code\n',
    );
  });

  it('says why a command never ran once, in its headline (a refusal, a timeout)', () => {
    const reasons = [
      'The user did not approve running run_command.',
      'run_command did not finish within 600000 ms and was stopped.',
    ];
    for (const reason of reasons) {
      const [refused] = toDisplayMessages([
        toolCallMessage('a1', 'run_command', { command: 'rm -rf build' }),
        toolResultMessage('t1', 'a1', { content: reason, isError: true }),
      ]) as [ConversationMessage];
      for (const verbose of [false, true]) {
        expect(renderDisplayMessage(refused, { ...plain, verbose })).toBe(
          `✗ Command \`rm -rf build\` failed: ${reason}\n`,
        );
      }
    }
  });

  it('shows a call waiting for approval as such, with the id that decides it, not as unfinished', () => {
    const call = toolCallMessage('a1', 'run_command', { command: 'rm -rf build' });
    const { request } = approvalRecords(call);
    const [waiting] = toDisplayMessages([call, request]) as [ConversationMessage];
    expect(waiting.toolExecution?.status).toBe('awaiting_approval');
    expect(renderDisplayMessage(waiting, plain)).toBe(
      '? run_command: rm -rf build — awaiting approval (a1.a0)\n',
    );
    expect(renderDisplayMessage(waiting, { colors: ansiColors })).toContain(ansiColors.yellow('?'));
  });

  it("leaves a successful command's output out unless verbose", () => {
    const ok = execution({ details: { type: 'commandOutput', stdout: 'built\n', stderr: '', exitCode: 0 } });
    expect(renderDisplayMessage(ok, plain)).toBe('✓ Ran `make`\n');
    expect(renderDisplayMessage(ok, { ...plain, verbose: true })).toBe('✓ Ran `make`\n    built\n');
  });

  it('marks an unfinished call and counts the files a search found', () => {
    expect(
      renderDisplayMessage(execution({ status: 'unfinished', summary: 'Bash did not finish' }), plain),
    ).toBe('… Bash did not finish\n');
    const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts'];
    const found = execution({ summary: 'Found 6 files', details: { type: 'fileList', files } });
    expect(renderDisplayMessage(found, plain)).toBe(
      '✓ Found 6 files\n    6 files: a.ts, b.ts, c.ts, d.ts, e.ts, …\n',
    );
    expect(renderDisplayMessage(found, { ...plain, verbose: true })).toBe(
      `✓ Found 6 files\n${files.map((file) => `    ${file}\n`).join('')}`,
    );
  });

  it('fits the summary line to the terminal width', () => {
    const long = execution({ summary: `Read ${'x'.repeat(100)}.ts`, durationMs: 1_500 });
    const line = renderDisplayMessage(long, { ...plain, width: 40 });
    expect(line).toBe(`✓ Read ${'x'.repeat(25)}… (1.5s)\n`);
    expect(line.length - 1).toBe(40);
  });

  it('shows errors with their code, reasoning and compaction summaries', () => {
    const error: ConversationMessage = {
      id: 'e',
      role: 'assistant',
      createdAt,
      content: 'The provider refused the key',
      partType: 'error',
      errorCode: 'LLM_AUTH',
    };
    expect(renderDisplayMessage(error, plain)).toBe('✗ Error (LLM_AUTH): The provider refused the key\n');
    const thinking: ConversationMessage = {
      id: 't',
      role: 'assistant',
      createdAt,
      content: 'Hmm.',
      partType: 'thinking',
    };
    expect(renderDisplayMessage(thinking, plain)).toBe('Hmm.\n');
    const compaction: ConversationMessage = {
      id: 'c',
      role: 'system',
      createdAt,
      content: 'The user asked for a CLI.\nIt was built.',
      partType: 'compaction',
      compaction: { fromSeq: 1, toSeq: 8 },
    };
    expect(renderDisplayMessage(compaction, plain)).toBe(
      '[earlier conversation summarised: The user asked for a CLI. It was built.]\n',
    );
  });

  it('shows nothing for hidden system records and empty messages', () => {
    const runState: ConversationMessage = {
      id: 's',
      role: 'system',
      createdAt,
      content: '{"status":"active"}',
      partType: 'run_state',
      includeInContext: false,
    };
    expect(renderDisplayMessage(runState, plain)).toBe('');
    expect(renderDisplayMessage({ id: 'a', role: 'assistant', createdAt, content: null }, plain)).toBe('');
  });

  it('shows a result that came without its call', () => {
    const orphan: ConversationMessage = {
      id: 'r',
      role: 'tool',
      createdAt,
      tool_call_id: 'call_gone',
      toolName: 'read_file',
      content: 'hello\nworld',
    };
    expect(renderDisplayMessage(orphan, plain)).toBe('✓ read_file result: hello world\n');
  });

  it('colours marks, diffs, errors and reasoning when colour is on', () => {
    const colors = { colors: ansiColors };
    const shownEdit = renderDisplayMessage(edit, colors);
    expect(shownEdit).toContain(ansiColors.green('✓'));
    expect(shownEdit).toContain(ansiColors.green('+const x = 1;'));
    expect(renderDisplayMessage(failedTest, colors)).toContain(ansiColors.red('exit code 1'));
    expect(renderDisplayMessage(failedTest, colors).startsWith(ansiColors.red('✗'))).toBe(true);
    const thinking: ConversationMessage = {
      id: 't',
      role: 'assistant',
      createdAt,
      content: 'Hmm.',
      partType: 'thinking',
    };
    expect(renderDisplayMessage(thinking, colors)).toBe(`${ansiColors.dim('Hmm.')}\n`);
    expect(renderDisplayMessage(user, colors)).toContain(ANSI);
    // The assistant's own text is never coloured.
    expect(renderDisplayMessage(answer, colors)).toBe('The test expects x to be 2.\n');
  });
});
