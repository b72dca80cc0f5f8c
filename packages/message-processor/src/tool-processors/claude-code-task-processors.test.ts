import { readFileSync } from 'node:fs';
import type { ConversationMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { processChunks } from '../../test/fixture-pipeline.js';
import { toDisplayMessages } from '../to-display-messages.js';

// The real Claude Code 2.1.197's recordings (packages/agent-cli/fixtures/real/claude-code), and an
// excerpt for the task tools no recorded scenario calls yet (__fixtures__/claude-code-task-tools-excerpt:
// TaskGet/List/Update/Output/Stop; TaskOutput and TaskStop need the id of a background task the CLI
// makes up, which the scripted stand-in cannot read back yet).
const real = (name: string) =>
  readFileSync(
    new URL(`../../../agent-cli/fixtures/real/claude-code/${name}.jsonl`, import.meta.url),
    'utf8',
  );
const excerpt = readFileSync(
  new URL('./__fixtures__/claude-code-task-tools-excerpt.jsonl', import.meta.url),
  'utf8',
);

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

  it('says what the other task tools did (excerpt)', async () => {
    expect(summaries(await executions(excerpt))).toEqual([
      ['TaskGet', 'Read task #1: Write hello.txt'],
      ['TaskList', 'Listed 2 tasks'],
      ['TaskUpdate', 'Marked task #1 completed'],
      ['TaskOutput', 'Read the output of task b7k2m9q4x'],
      ['TaskStop', 'Stopped task b7k2m9q4x'],
    ]);
  });
});

describe('Claude Code Bash output over its limit on the real CLI (bigout)', () => {
  it('says the output was cut and where the whole of it is, in the summary and after the cut stdout', async () => {
    const [bash] = await executions(real('bigout'));
    const path = /Full output saved to: (\S+)/.exec(bash?.toolExecution?.output ?? '')?.[1];
    expect(path).toMatch(/tool-results\/bupncz1gb\.txt$/);
    expect(bash?.toolExecution?.summary).toBe('Ran `seq 1 15000` (output cut; full output in bupncz1gb.txt)');
    const details = bash?.toolExecution?.details;
    expect(details?.type).toBe('commandOutput');
    const stdout = details?.type === 'commandOutput' ? details.stdout : '';
    expect(
      stdout.endsWith(`\n[Output cut after 30000 characters; the full output (78894 bytes) is in ${path}]`),
    ).toBe(true);
  });
});
