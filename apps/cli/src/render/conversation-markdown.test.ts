import type { ConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { describe, expect, it } from 'vitest';
import { conversationToMarkdown } from './conversation-markdown.js';
import { approvalRecords, editAndFailedTestLog, textMessage, toolCallMessage } from './test-support.js';

const createdAt = '2025-01-24T10:00:00.000Z';

describe('conversationToMarkdown', () => {
  it('writes a display view with a heading per speaker, the diff and the failed command output', () => {
    const view = toDisplayMessages(editAndFailedTestLog(), { cwd: '/repo' });
    const markdown = conversationToMarkdown(view, { title: 'Fix x' });
    expect(markdown).toBe(
      [
        '# Fix x',
        '',
        '## User',
        '',
        'Make x a const and run the tests.',
        '',
        '## Assistant',
        '',
        'Editing src/a.ts.',
        '',
        '✓ Updated src/a.ts',
        '',
        '```diff',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,2 +1,2 @@',
        '-let x = 1;',
        '+const x = 1;',
        ' export { x };',
        '```',
        '',
        '✗ Command `npm test` failed: Exit code 1',
        '',
        '```text',
        'running 1 test',
        'FAIL src/a.test.ts',
        'expected 2, received 1',
        '```',
        '',
        '_exit code 1_',
        '',
        'The test expects x to be 2.',
        '',
      ].join('\n'),
    );
    expect(conversationToMarkdown(view, { title: 'Fix x' })).toBe(markdown);
  });

  it('quotes errors with their code, folds reasoning and leaves hidden records out', () => {
    const messages: ConversationMessage[] = [
      { id: 's', role: 'system', createdAt, content: '{}', partType: 'run_state', includeInContext: false },
      textMessage('u', 'user', 'Go'),
      { id: 't', role: 'assistant', createdAt, content: 'Think first.', partType: 'thinking' },
      {
        id: 'e',
        role: 'assistant',
        createdAt,
        content: 'The model is overloaded.\nTry again later.',
        partType: 'error',
        errorCode: 'LLM_UNAVAILABLE',
      },
    ];
    expect(conversationToMarkdown(messages)).toBe(
      [
        '## User',
        '',
        'Go',
        '',
        '## Assistant',
        '',
        '<details>\n<summary>Thinking</summary>\n\nThink first.\n\n</details>',
        '',
        '> **Error (`LLM_UNAVAILABLE`):** The model is overloaded.',
        '> Try again later.',
        '',
      ].join('\n'),
    );
    expect(conversationToMarkdown([])).toBe('');
  });

  it('marks a call waiting for approval with its request id', () => {
    const call = toolCallMessage('a1', 'deploy', { target: 'prod' });
    const view = toDisplayMessages([
      textMessage('u1', 'user', 'Ship it'),
      call,
      approvalRecords(call).request,
    ]);
    expect(conversationToMarkdown(view)).toBe(
      '## User\n\nShip it\n\n## Assistant\n\n? deploy {"target":"prod"} — awaiting approval (a1.a0)\n',
    );
  });

  it('fences command output that contains a fence with a longer one', () => {
    const messages: ConversationMessage[] = [
      {
        id: 'x',
        role: 'assistant',
        createdAt,
        partType: 'tool_execution',
        toolExecution: {
          toolName: 'run_command',
          toolUseId: 'call_1',
          input: { command: 'cat README.md' },
          output: '',
          isError: false,
          durationMs: 5,
          summary: 'Ran `cat README.md`',
          details: { type: 'commandOutput', stdout: '```js\nx\n```\n', stderr: '', exitCode: 0 },
        },
      },
    ];
    expect(conversationToMarkdown(messages)).toBe(
      '## Assistant\n\n✓ Ran `cat README.md`\n\n````text\n```js\nx\n```\n````\n',
    );
  });

  it('heads a compaction summary on its own', () => {
    const summary: ConversationMessage = {
      id: 'c',
      role: 'system',
      createdAt,
      content: 'The user wants a CLI.',
      partType: 'compaction',
      compaction: { fromSeq: 1, toSeq: 4 },
    };
    expect(conversationToMarkdown([summary, textMessage('u', 'user', 'Next?')])).toBe(
      '## Summary of the earlier conversation\n\nThe user wants a CLI.\n\n## User\n\nNext?\n',
    );
  });
});
