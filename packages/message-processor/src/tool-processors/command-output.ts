import type { CommandOutputDetails } from '@cairn/core';
import { fieldOf, stringField } from './json-fields.js';
import type { ToolCallView } from './tool-call-view.js';

// Claude Code's Bash starts a failure's output with "Exit code 2"; Gemini CLI reports "Exit Code: 2".
const EXIT_CODE_LINE = /^(?:error:\s*)?exit code:?\s*(-?\d{1,9})\s*$/im;

/** The exit code a failed command's output reports, if it does. */
export function parseExitCode(text: string): number | undefined {
  const match = EXIT_CODE_LINE.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function exitCodeOf(call: ToolCallView): number | null {
  const reported = fieldOf(call.structured, 'exitCode', 'exit_code');
  if (Number.isSafeInteger(reported)) return reported as number;
  // An interrupted command was killed: it has no exit code.
  if (fieldOf(call.structured, 'interrupted') === true) return null;
  if (!call.isError) return 0;
  return parseExitCode(call.output) ?? null;
}

/**
 * What a shell command printed and how it ended: stdout and stderr from the structured result
 * (Claude Code's Bash keeps them apart), else the output text as stdout.
 */
export function commandOutputDetails(call: ToolCallView): CommandOutputDetails {
  return {
    type: 'commandOutput',
    stdout: stringField(call.structured, 'stdout') ?? call.output,
    stderr: stringField(call.structured, 'stderr') ?? '',
    exitCode: exitCodeOf(call),
  };
}
