import { fieldOf, stringField } from './json-fields.js';
import { firstLine, truncate } from './summary-text.js';
import type { ToolCallView } from './tool-call-view.js';

const MAX_REASON_LENGTH = 120;
// Claude Code wraps its own refusals: "<tool_use_error>File has not been read yet.</tool_use_error>".
const TOOL_USE_ERROR_TAG = /<\/?tool_use_error>/g;
// …and adds where it runs to a missing file's: the summary names the file relative to that already.
const CWD_NOTE = /\s*Note: your current working directory is .*$/;

/** Why a call failed, in one short line: the output's first line, else the structured error's message. */
function failureReason(call: ToolCallView): string {
  const output = firstLine(call.output.replace(TOOL_USE_ERROR_TAG, '')).replace(CWD_NOTE, '');
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
 * call worked on, "<label> <subject> — failed: <reason>".
 */
export function failureSummary(label: string, call: ToolCallView, subject?: string): string {
  const reason = failureReason(call);
  const failed = subject === undefined ? `${label} failed` : `${label} ${subject} — failed`;
  return reason === '' ? failed : `${failed}: ${reason}`;
}
