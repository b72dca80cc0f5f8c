import type { DiffDetails } from '@cairn/core';
import { defineToolProcessor } from './define-tool-processor.js';
import { fieldOf, stringField } from './json-fields.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { fileSubject, shownFilePath } from './tool-input.js';
import { diffDetails } from './unified-patch.js';

// Gemini CLI's write_file starts its output with "Successfully overwrote file: <path>." when the
// file was there ("Successfully created and wrote to new file: <path>." when it was not).
const OVERWROTE = /^Successfully overwrote file: /;

/** The file's content before the write, when the result says (Claude Code's `originalFile`). */
function originalContentOf(call: ToolCallView): string | undefined {
  return stringField(call.structured, 'originalFile');
}

function replacedExistingFile(call: ToolCallView): boolean {
  return (
    stringField(call.structured, 'type') === 'update' ||
    originalContentOf(call) !== undefined ||
    OVERWROTE.test(call.output)
  );
}

function writeDiff(call: ToolCallView): DiffDetails | undefined {
  const file = fileSubject(call);
  const content = stringField(call.input, 'content') ?? stringField(call.structured, 'content');
  if (file === undefined || content === undefined) return undefined;
  const original = originalContentOf(call);
  if (original === undefined) return diffDetails(file.path, '', content, { shownPath: file.name });
  // Claude Code's result has the hunks of the change too: no need to diff.
  return diffDetails(file.path, original, content, {
    hunks: fieldOf(call.structured, 'structuredPatch'),
    shownPath: file.name,
  });
}

/** Whole-file writes: "Created hello.txt" or, over an existing file, "Updated hello.txt"; with the diff. */
export function createWriteFileProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Write',
    subject: fileSubject,
    summarize: (call) => `${replacedExistingFile(call) ? 'Updated' : 'Created'} ${shownFilePath(call)}`,
    details: (call) => (call.isError ? undefined : writeDiff(call)),
  });
}
