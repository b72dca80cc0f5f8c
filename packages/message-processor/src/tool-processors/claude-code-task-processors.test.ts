import { readFileSync } from 'node:fs';
import type { ConversationMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { processChunks } from '../../test/fixture-pipeline.js';
import { toDisplayMessages } from '../to-display-messages.js';

// The real Claude Code 2.1.197's recordings (packages/agent-cli/fixtures/real/claude-code).
const real = (name: string) =>
  readFileSync(
    new URL(`../../../agent-cli/fixtures/real/claude-code/${name}.jsonl`, import.meta.url),
    'utf8',
  );

// A recorded line's value that the CLI picks anew on each run (a task id, a file name): read from
// the recording, so a re-recording needs no edit here.
const recordedLine = (name: string, has: string) =>
  JSON.parse(
    real(name)
      .split('\n')
      .find((line) => line.includes(has)) ?? '{}',
  ) as Record<string, unknown>;

async function executions(transcript: string): Promise<ConversationMessage[]> {
  const display = toDisplayMessages(await processChunks('claude-code', [transcript]));
  return display.filter((message) => message.toolExecution !== undefined);
}

const summaries = (messages: ConversationMessage[]) =>
  messages.map((message) => [message.toolExecution?.toolName, message.toolExecution?.summary]);

describe('Claude Code task tools on the real CLI', () => {
  it('says what TaskCreate, the Agent sub-agent and its Bash call did (taskcreate-agent)', async () => {
    expect(summaries(await executions(real('taskcreate-agent')))).toEqual([
      ['TaskCreate', 'Created task #1: Write hello.txt'],
      ['Bash', 'Ran `ls -la`'],
      ['Agent', 'Sub-agent: List the directory (1 tool call)'],
    ]);
  });

  it('says what TodoWrite, the task tool of CLAUDE_CODE_ENABLE_TASKS=0, did (todowrite)', async () => {
    expect(summaries(await executions(real('todowrite')))).toEqual([
      ['TodoWrite', 'Updated todos (2): 1 in progress, 1 pending'],
      ['Bash', 'Ran `ls -la`'],
      ['Agent', 'Sub-agent: List the directory (1 tool call)'],
    ]);
  });

  it('says what every other task tool did, a background command read and stopped (tasks)', async () => {
    const taskId = recordedLine('tasks', '"subtype":"task_started"').task_id;
    expect(taskId).toMatch(/^\w+$/);
    expect(summaries(await executions(real('tasks')))).toEqual([
      ['TaskCreate', 'Created task #1: Write hello.txt'],
      ['TaskGet', 'Read task #1: Write hello.txt'],
      ['TaskList', 'Listed 1 task'],
      ['TaskUpdate', 'Marked task #1 completed'],
      ['Bash', `Started \`sleep 30\` in the background (task ${taskId})`],
      ['TaskOutput', `Checked task ${taskId}: still running, no output yet`],
      ['TaskStop', `Stopped task ${taskId}`],
    ]);
  });
});

describe('Claude Code Bash output over its limit on the real CLI (bigout)', () => {
  it('says the output was cut and where the whole of it is, in the summary and after the cut stdout', async () => {
    const [bash] = await executions(real('bigout'));
    const result = recordedLine('bigout', '"persistedOutputPath"').tool_use_result as {
      persistedOutputPath: string;
    };
    const file = /tool-results\/(\w+\.txt)$/.exec(result.persistedOutputPath)?.[1];
    expect(file).toBeDefined();
    const path = /Full output saved to: (\S+)/.exec(bash?.toolExecution?.output ?? '')?.[1];
    expect(path).toBe(result.persistedOutputPath);
    expect(bash?.toolExecution?.summary).toBe(`Ran \`seq 1 15000\` (output cut; full output in ${file})`);
    const details = bash?.toolExecution?.details;
    expect(details?.type).toBe('commandOutput');
    const stdout = details?.type === 'commandOutput' ? details.stdout : '';
    expect(
      stdout.endsWith(`\n[Output cut after 30000 characters; the full output (78894 bytes) is in ${path}]`),
    ).toBe(true);
  });
});
