import type { CommandOutputDetails, FileListDetails, ToolExecutionMetadata } from '@cairn/core';
import type { Colors } from './colors.js';
import { fitWidth, flattenLines } from './fit-width.js';
import { formatDuration } from './format-duration.js';
import { plural } from './format-numbers.js';
import type { RenderOptions } from './render-options.js';
import { renderPatch } from './render-patch.js';
import {
  commandFailed,
  commandOutputText,
  type ExecutionOutcome,
  executionOutcome,
  executionSummary,
  exitCodeText,
} from './tool-execution-outcome.js';

// Details sit under the headline, past its status mark.
const INDENT = '    ';
// Lines of a failed command's output shown without `verbose`: its end, where the error is.
const COMMAND_TAIL_LINES = 10;
// File names previewed after the count without `verbose`.
const PREVIEWED_FILES = 5;

const MARKS: Record<ExecutionOutcome, (colors: Colors) => string> = {
  ok: (colors) => colors.green('✓'),
  error: (colors) => colors.red('✗'),
  unfinished: (colors) => colors.yellow('…'),
  awaiting_approval: (colors) => colors.yellow('?'),
};

/**
 * A tool call and its result: one headline (status mark, summary, duration), then what the details
 * add — the diff, a failed command's last lines and exit code, the files found.
 */
export function renderToolExecution(execution: ToolExecutionMetadata, options: RenderOptions): string {
  return headline(execution, options) + detailsOf(execution, options);
}

function headline(execution: ToolExecutionMetadata, { colors, width }: RenderOptions): string {
  const mark = MARKS[executionOutcome(execution)](colors);
  const duration = execution.durationMs > 0 ? ` (${formatDuration(execution.durationMs)})` : '';
  const room = width === undefined ? undefined : width - 2 - duration.length;
  return `${mark} ${fitWidth(flattenLines(executionSummary(execution)), room)}${colors.dim(duration)}\n`;
}

function detailsOf(execution: ToolExecutionMetadata, options: RenderOptions): string {
  const { details } = execution;
  switch (details?.type) {
    case 'diff':
      if (details.patch === undefined || details.patch === '') return '';
      return renderPatch(withoutFileHeaders(details.patch), options.colors, {
        indent: INDENT,
        ...(options.verbose ? { maxLines: Number.POSITIVE_INFINITY } : {}),
      });
    case 'commandOutput':
      return commandOutputLines(execution, details, options);
    case 'fileList':
      return fileListLines(details, options);
    default:
      return '';
  }
}

// The headline names the file already: the diff starts at its first hunk.
function withoutFileHeaders(patch: string): string {
  if (patch.startsWith('@@')) return patch;
  return patch.slice(patch.indexOf('\n@@') + 1);
}

function commandOutputLines(
  execution: ToolExecutionMetadata,
  details: CommandOutputDetails,
  { colors, width, verbose }: RenderOptions,
): string {
  const failed = commandFailed(execution, details);
  if (!failed && !verbose) return '';
  const text = commandOutputText(details);
  if (onlyTheReason(execution, details, text)) return '';
  const lines = text === '' ? [] : text.split('\n');
  const shown = verbose ? lines : lines.slice(-COMMAND_TAIL_LINES);
  const hidden = lines.length - shown.length;
  const room = verbose || width === undefined ? undefined : width - INDENT.length;
  const rendered = shown.map((line) => `${INDENT}${colors.dim(fitWidth(line, room))}\n`);
  if (hidden > 0)
    rendered.unshift(`${INDENT}${colors.dim(`… ${hidden} earlier ${plural(hidden, 'line')}`)}\n`);
  if (failed) rendered.push(`${INDENT}${colors.red(exitCodeText(details.exitCode))}\n`);
  return rendered.join('');
}

// A command refused, or stopped before it said anything, has no output of its own: its one line is
// why, which the headline already gives.
function onlyTheReason(execution: ToolExecutionMetadata, details: CommandOutputDetails, text: string) {
  return details.exitCode === null && text !== '' && !text.includes('\n') && execution.summary.endsWith(text);
}

function fileListLines({ files }: FileListDetails, { colors, width, verbose }: RenderOptions): string {
  if (files.length === 0) return '';
  if (verbose) return files.map((file) => `${INDENT}${colors.dim(file)}\n`).join('');
  const room = width === undefined ? undefined : width - INDENT.length;
  const preview = files.slice(0, PREVIEWED_FILES).join(', ');
  const more = files.length > PREVIEWED_FILES ? ', …' : '';
  const line = `${files.length} ${plural(files.length, 'file')}: ${preview}${more}`;
  return `${INDENT}${colors.dim(fitWidth(line, room))}\n`;
}
