import type { CommandOutputDetails } from '@cairn/core';
import { countField, fieldOf, stringField } from './json-fields.js';
import type { ToolCallView } from './tool-call-view.js';

// Gemini CLI's shell tool ends what the model sees with "Exit Code: 2" when the command exits
// non-zero, and displays "Command exited with code: 2" when there is no output; it reports
// either as a success. The last such line counts: the command's own output comes before it.
const GEMINI_EXIT_CODE_LINE = /^(?:Exit Code: |Command exited with code: )(-?\d{1,9})[ \t]*$/gm;
const GEMINI_EXIT_CODE = 'Exit Code: ';
const GEMINI_EXITED_WITH = 'Command exited with code: ';
// Claude Code's Bash starts a failure's output with "Exit code 2".
const EXIT_CODE_LINE = /^(?:error:\s*)?exit code:?\s*(-?\d{1,9})\s*$/im;
// Gemini CLI on a command killed by a signal: "Signal: 15" ("Signal: (none)" in older versions),
// or "Command terminated by signal: SIGTERM".
const SIGNAL_LINE = /^(?:Signal: (?!\(none\))|Command terminated by signal: )\S/m;

/**
 * The exit code a command's output reports, if it does: Gemini CLI's lines, else (for a
 * `failed` command only) a line like Claude Code's "Exit code 2".
 */
export function parseExitCode(text: string, failed = true): number | undefined {
  let code: string | undefined;
  // Only Gemini CLI's outputs have such lines: the regex runs over the whole output only when one may be there.
  if (text.includes(GEMINI_EXIT_CODE) || text.includes(GEMINI_EXITED_WITH))
    for (const match of text.matchAll(GEMINI_EXIT_CODE_LINE)) code = match[1];
  if (code === undefined && failed) code = EXIT_CODE_LINE.exec(text)?.[1];
  return code === undefined ? undefined : Number(code);
}

function exitCodeOf(call: ToolCallView): number | null {
  const reported = fieldOf(call.structured, 'exitCode') ?? fieldOf(call.structured, 'exit_code');
  if (Number.isSafeInteger(reported)) return reported as number;
  // An interrupted command was killed: it has no exit code.
  if (fieldOf(call.structured, 'interrupted') === true) return null;
  // A success's stdout kept apart (Claude Code's Bash) is the command's own text, whatever it says.
  const ownOutput = !call.isError && stringField(call.structured, 'stdout') !== undefined;
  if (ownOutput) return 0;
  const stated = parseExitCode(call.output, call.isError);
  if (stated !== undefined) return stated;
  return call.isError || SIGNAL_LINE.test(call.output) ? null : 0;
}

/** Where Claude Code saved a command's whole output it cut (over 30,000 characters), and its size. */
export interface PersistedOutput {
  path: string;
  bytes?: number;
}

/** The saved whole output of a command whose result Claude Code cut, if it did. */
export function persistedOutputOf(call: ToolCallView): PersistedOutput | undefined {
  const path = stringField(call.structured, 'persistedOutputPath');
  if (path === undefined || path === '') return undefined;
  const bytes = countField(call.structured, 'persistedOutputSize');
  return bytes === undefined ? { path } : { path, bytes };
}

// "the full output (78894 bytes)", the size when known.
function persistedSize(persisted: PersistedOutput): string {
  return persisted.bytes === undefined ? 'the full output' : `the full output (${persisted.bytes} bytes)`;
}

// The cut stdout never passes for the whole: a last line says it was cut and where the rest is.
function stdoutOf(call: ToolCallView): string {
  const stdout = stringField(call.structured, 'stdout');
  if (stdout === undefined) return call.output;
  const persisted = persistedOutputOf(call);
  if (persisted === undefined) return stdout;
  const lineBreak = stdout === '' || stdout.endsWith('\n') ? '' : '\n';
  return `${stdout}${lineBreak}[Output cut after ${stdout.length} characters; ${persistedSize(persisted)} is in ${persisted.path}]`;
}

/**
 * What a shell command printed and how it ended: stdout and stderr from the structured result
 * (Claude Code's Bash keeps them apart), else the output text as stdout.
 */
export function commandOutputDetails(call: ToolCallView): CommandOutputDetails {
  return {
    type: 'commandOutput',
    stdout: stdoutOf(call),
    stderr: stringField(call.structured, 'stderr') ?? '',
    exitCode: exitCodeOf(call),
  };
}
