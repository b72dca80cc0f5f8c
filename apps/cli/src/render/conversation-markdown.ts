import type { ConversationMessage, ToolExecutionMetadata } from '@cairn/core';
import { contentWithLabels } from './attachment-label.js';
import {
  commandOutputText,
  executionOutcome,
  executionSummary,
  exitCodeText,
} from './tool-execution-outcome.js';

const OUTCOME_MARKS = { ok: '✓', error: '✗', unfinished: '…', awaiting_approval: '?' } as const;

/**
 * A display view (see `toDisplayMessages`) as Markdown: a heading each time the speaker changes,
 * tool executions as their summary with the diff or command output in a fenced block, errors
 * quoted. Hidden system records are left out. The same messages always give the same text.
 */
export function conversationToMarkdown(
  messages: ConversationMessage[],
  options: { title?: string } = {},
): string {
  const blocks: string[] = [];
  if (options.title !== undefined) blocks.push(`# ${options.title}`);
  let speaker: string | undefined;
  for (const message of messages) {
    const body = messageMarkdown(message);
    if (body === '') continue;
    const heading = speakerOf(message);
    if (heading !== speaker) blocks.push(`## ${heading}`);
    speaker = heading;
    blocks.push(body);
  }
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

function speakerOf(message: ConversationMessage): string {
  if (message.role === 'user') return 'User';
  if (message.role === 'system') return 'Summary of the earlier conversation';
  return message.agentId === undefined ? 'Assistant' : `Assistant (${message.agentId})`;
}

function messageMarkdown(message: ConversationMessage): string {
  if (message.toolExecution !== undefined) return toolExecutionMarkdown(message.toolExecution);
  const text = contentWithLabels(message.content).trim();
  if (text === '') return '';
  switch (message.role) {
    case 'system':
      return message.partType === 'compaction' ? text : '';
    case 'tool':
      return `**${message.toolName ?? 'Tool'} result${message.isError ? ' (failed)' : ''}**\n\n${fenced('text', text)}`;
    case 'assistant':
      if (message.partType === 'error') {
        const label = message.errorCode === undefined ? 'Error' : `Error (\`${message.errorCode}\`)`;
        return quoted(`**${label}:** ${text}`);
      }
      if (message.partType === 'thinking')
        return `<details>\n<summary>Thinking</summary>\n\n${text}\n\n</details>`;
      return text;
    default:
      return text;
  }
}

function toolExecutionMarkdown(execution: ToolExecutionMetadata): string {
  const parts = [`${OUTCOME_MARKS[executionOutcome(execution)]} ${executionSummary(execution).trim()}`];
  const { details } = execution;
  if (details?.type === 'diff' && details.patch !== undefined && details.patch !== '') {
    parts.push(fenced('diff', details.patch.trimEnd()));
  } else if (details?.type === 'commandOutput') {
    const output = commandOutputText(details);
    if (output !== '') parts.push(fenced('text', output));
    if (details.exitCode !== 0) parts.push(`_${exitCodeText(details.exitCode)}_`);
  } else if (details?.type === 'fileList' && details.files.length > 0) {
    parts.push(details.files.map((file) => `- \`${file}\``).join('\n'));
  }
  return parts.join('\n\n');
}

// A fence longer than any run of backticks in the text, so the text cannot close it.
function fenced(language: string, text: string): string {
  let longestRun = 0;
  for (const match of text.matchAll(/`+/g)) longestRun = Math.max(longestRun, match[0].length);
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}
