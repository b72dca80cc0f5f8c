import type { ConversationMessage } from '@cairn/core';
import { contentWithLabels } from './attachment-label.js';
import type { Colors } from './colors.js';
import { fitWidth, flattenLines } from './fit-width.js';
import { renderMarkdown } from './markdown-stream.js';
import type { RenderOptions } from './render-options.js';
import { renderToolExecution } from './render-tool-execution.js';

// A summary line without a known terminal width still stays short.
const DEFAULT_LINE_WIDTH = 100;

/**
 * One display-view message (see `toDisplayMessages`) as terminal text ending with a line break;
 * '' for what is not shown: system records other than compaction summaries, empty messages.
 */
export function renderDisplayMessage(message: ConversationMessage, options: RenderOptions): string {
  if (message.toolExecution !== undefined) return renderToolExecution(message.toolExecution, options);
  // Images and files show as one line each: `[image: shot.png 1280×720, 310 KB]`.
  const text = contentWithLabels(message.content);
  const { colors } = options;
  switch (message.role) {
    case 'user':
      return userLines(text, colors);
    case 'system':
      return message.partType === 'compaction' ? compactionLine(text, options) : '';
    case 'tool':
      return toolResultLine(message, options);
    case 'assistant':
      if (message.partType === 'error') return errorLines(text, message.errorCode, colors);
      if (message.partType === 'thinking') return withLineBreak(colors.dim(text), text);
      if (options.markdown) return renderMarkdown(text, { colors, width: options.width });
      return withLineBreak(text, text);
    default:
      return '';
  }
}

// `plain` is `styled` without colour: whether it already ends a line is read from it.
function withLineBreak(styled: string, plain: string): string {
  if (plain === '') return '';
  return plain.endsWith('\n') ? styled : `${styled}\n`;
}

// "› what you typed", later lines under the first.
function userLines(text: string, colors: Colors): string {
  if (text === '') return '';
  const lines = text.trimEnd().split('\n');
  return `${lines.map((line, index) => `${index === 0 ? colors.bold(colors.cyan('›')) : ' '} ${line}`).join('\n')}\n`;
}

function errorLines(text: string, code: string | undefined, colors: Colors): string {
  const label = code === undefined ? 'Error' : `Error (${code})`;
  return `${colors.red(`✗ ${label}: ${text.trimEnd()}`)}\n`;
}

function compactionLine(text: string, { colors, width, verbose }: RenderOptions): string {
  if (verbose) return `${colors.dim(`[earlier conversation summarised:\n${text.trimEnd()}]`)}\n`;
  const line = `[earlier conversation summarised: ${flattenLines(text)}`;
  return `${colors.dim(`${fitWidth(line, (width ?? DEFAULT_LINE_WIDTH) - 1)}]`)}\n`;
}

// A result without its call (the display view shows it alone): its first line.
function toolResultLine(message: ConversationMessage, { colors, width }: RenderOptions): string {
  const mark = message.isError ? colors.red('✗') : colors.green('✓');
  const line = `${message.toolName ?? 'tool'} result: ${flattenLines(contentWithLabels(message.content))}`;
  return `${mark} ${fitWidth(line, (width ?? DEFAULT_LINE_WIDTH) - 2)}\n`;
}
