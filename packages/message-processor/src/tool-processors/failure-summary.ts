import { fieldOf, stringField } from './json-fields.js';
import { firstLine, truncate } from './summary-text.js';
import type { ToolCallView } from './tool-call-view.js';

const MAX_REASON_LENGTH = 120;
// Claude Code wraps its own refusals: "<tool_use_error>File has not been read yet.</tool_use_error>".
const TOOL_USE_ERROR_TAG = /<\/?tool_use_error>/g;
const TAG_NAME = 'tool_use_error>';
// …and adds where it runs to a missing file's: the summary names the file relative to that already.
const CWD_NOTE = /\s*Note: your current working directory is .*$/;

/** What a failed call worked on: its name in the summary, and the path the tool's message may end with. */
export interface CallSubject {
  name: string;
  path: string;
}

/** Why a call failed, in one short line: the output's first line, else the structured error's message. */
function failureReason(call: ToolCallView): string {
  // The tags are looked for before the whole output is copied without them.
  const untagged = call.output.includes(TAG_NAME) ? call.output.replace(TOOL_USE_ERROR_TAG, '') : call.output;
  const output = firstLine(untagged).replace(CWD_NOTE, '');
  const reason =
    output !== ''
      ? output
      : firstLine(
          stringField(fieldOf(call.structured, 'error'), 'message') ??
            (typeof call.structured === 'string' ? call.structured : ''),
        );
  return truncate(reason, MAX_REASON_LENGTH);
}

/**
 * "<label> failed: <reason>", or "<label> failed" when no reason is known; with the `subject` the
 * call worked on, "<label> <subject name> — failed: <reason>", the reason without a last ": <path>"
 * (Gemini CLI's "File not found: /abs/x.ts": the name says which file already).
 */
export function failureSummary(label: string, call: ToolCallView, subject?: CallSubject): string {
  let reason = failureReason(call);
  if (subject !== undefined && reason.endsWith(`: ${subject.path}`))
    reason = reason.slice(0, -(subject.path.length + 2));
  const failed = subject === undefined ? `${label} failed` : `${label} ${subject.name} — failed`;
  return reason === '' ? failed : `${failed}: ${reason}`;
}
