import type { DiffDetails, JsonValue } from '@cairn/core';
import { defineToolProcessor } from './define-tool-processor.js';
import { applyEdits, type FileEdit } from './file-edits.js';
import { fieldOf, stringField } from './json-fields.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { filePathOf, shownFilePath } from './tool-input.js';
import { applyHunks, diffDetails } from './unified-patch.js';

export interface EditFileProcessorOptions {
  toolNames: readonly string[];
  /** The edits a call asks for: one for Edit-like tools, many for MultiEdit. */
  editsOf(input: JsonValue): FileEdit[];
}

/**
 * The whole file before and after when the result carries the original (Claude Code's
 * `originalFile`, MultiEdit's `originalFileContents`): the edits made on it, else its
 * `structuredPatch`. Otherwise only the replaced snippets are known.
 */
function editDiff(call: ToolCallView, edits: readonly FileEdit[]): DiffDetails | undefined {
  const filePath = filePathOf(call);
  if (filePath === undefined) return undefined;
  const original = stringField(call.structured, 'originalFile', 'originalFileContents');
  if (original !== undefined) {
    const edited =
      applyEdits(original, edits) ?? applyHunks(original, fieldOf(call.structured, 'structuredPatch'));
    if (edited !== undefined) return diffDetails(filePath, original, edited);
  }
  if (edits.length === 0) return undefined;
  return diffDetails(
    filePath,
    edits.map((edit) => edit.oldString).join('\n'),
    edits.map((edit) => edit.newString).join('\n'),
    { fragment: true },
  );
}

/** Find-and-replace tools: "Updated src/a.ts", with the diff. */
export function createEditFileProcessor({ toolNames, editsOf }: EditFileProcessorOptions): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Edit',
    summarize: (call) => `Updated ${shownFilePath(call)}`,
    details: (call) => (call.isError ? undefined : editDiff(call, editsOf(call.input))),
  });
}
