import { INTERRUPTED_TOOL_RESULT_TEXT } from '@cairn/core';
import type { ChatMessage } from './read-chat-request.js';

// The model sees only a tool result's text, not its error flag: these are the tool host's wordings
// for a call the user or the policy refused.
const REFUSED = /TOOL_DENIED|did not approve|needs the user's approval|was not run|is not allowed here/i;

/** The texts of the tool results after `start`, in order: the tour's progress in this turn. */
export function toolResultsAfter(messages: readonly ChatMessage[], start: number): string[] {
  return messages
    .slice(start + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => message.content);
}

export function wasRefused(result: string): boolean {
  return REFUSED.test(result);
}

export function wasInterrupted(result: string): boolean {
  return result.startsWith(INTERRUPTED_TOOL_RESULT_TEXT);
}

export function firstLine(text: string, maxLength = 120): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length <= maxLength ? line : `${line.slice(0, maxLength - 1)}…`;
}

/** The exit code of a failed `run_command` ("Exit code 1" heads its result), if it ran to the end. */
export function exitCodeOf(result: string): number | undefined {
  const match = /^Exit code (\d+)/.exec(result);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The line of a failed command's output worth quoting: a failing test (`not ok 2 - …` from TAP,
 * `✖ …` from the spec reporter, depending on the Node version), else an error, else the first one.
 */
export function keyFailureLine(result: string): string {
  const lines = result
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const failingTest = lines.find((line) => /^(not ok \d+ - |✖ )/.test(line) && !/failing tests/.test(line));
  const error = lines.find((line) => /\w*Error\b/.test(line));
  return firstLine(failingTest ?? error ?? lines[0] ?? result);
}
