import type { DiffDetails, JsonValue } from '@cairn/core';
import { defineToolProcessor } from './define-tool-processor.js';
import { applyEdits, type FileEdit } from './file-edits.js';
import { fieldOf, stringField } from './json-fields.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { fileSubject, shownFilePath } from './tool-input.js';
import { applyHunks, diffDetails } from './unified-patch.js';

export interface EditFileProcessorOptions {
  toolNames: readonly string[];
  /** The edits a call asks for: one for Edit-like tools, many for MultiEdit. */
  editsOf(input: JsonValue): FileEdit[];
}

/** The file before the edit, when the result has it (Claude Code's Edit and MultiEdit name it differently). */
function originalFileOf(call: ToolCallView): string | undefined {
  return stringField(call.structured, 'originalFile') ?? stringField(call.structured, 'originalFileContents');
}

/**
 * The whole file before and after when the result carries the original (Claude Code's
 * `originalFile`, MultiEdit's `originalFileContents`): the edits made on it, else its
 * `structuredPatch`; the patch is that `structuredPatch` when there is one. Otherwise only the
 * replaced snippets are known.
 */
function editDiff(call: ToolCallView, edits: readonly FileEdit[]): DiffDetails | undefined {
  const file = fileSubject(call);
  if (file === undefined) return undefined;
  const original = originalFileOf(call);
  if (original !== undefined) {
    const hunks = fieldOf(call.structured, 'structuredPatch');
    const edited = applyEdits(original, edits) ?? applyHunks(original, hunks);
    if (edited !== undefined)
      return diffDetails(file.path, original, edited, { hunks, shownPath: file.name });
  }
  if (edits.length === 0) return undefined;
  return diffDetails(
    file.path,
    edits.map((edit) => edit.oldString).join('\n'),
    edits.map((edit) => edit.newString).join('\n'),
    { fragment: true, shownPath: file.name },
  );
}

/**
 * An edit whose first old string is empty creates the file (Gemini CLI's replace; a file that is
 * already there makes it fail), unless the result shows an original with something in it.
 */
function createdFile(call: ToolCallView, edits: readonly FileEdit[]): boolean {
  if (edits[0]?.oldString !== '') return false;
  const original = originalFileOf(call);
  return original === undefined || original === '';
}

/** Find-and-replace tools: "Updated src/a.ts" ("Created src/a.ts" from an empty old string), with the diff. */
export function createEditFileProcessor({ toolNames, editsOf }: EditFileProcessorOptions): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Edit',
    subject: fileSubject,
    summarize: (call) =>
      `${createdFile(call, editsOf(call.input)) ? 'Created' : 'Updated'} ${shownFilePath(call)}`,
    details: (call) => (call.isError ? undefined : editDiff(call, editsOf(call.input))),
  });
}
