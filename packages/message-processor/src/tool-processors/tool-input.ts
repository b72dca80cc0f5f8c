import { displayPath } from './display-path.js';
import type { CallSubject } from './failure-summary.js';
import { stringField } from './json-fields.js';
import type { ToolCallView } from './tool-call-view.js';

// Claude Code and Gemini CLI say `file_path`; Cairn (and Gemini CLI's older tools) `path`; Gemini
// CLI's first read_file `absolute_path`.
const FILE_PATH_FIELDS = ['file_path', 'path', 'absolute_path'] as const;
// Gemini CLI's list_directory says `dir_path` (it used to say `path`).
const DIRECTORY_PATH_FIELDS = ['dir_path', 'path', 'directory'] as const;

/** A non-empty string field of the call's input. */
export function inputText(call: ToolCallView, name: string): string | undefined {
  return stringField(call.input, name) || undefined;
}

/** The first of `names` that is a non-empty string field of the call's input. */
function firstInputText(call: ToolCallView, names: readonly string[]): string | undefined {
  for (let index = 0; index < names.length; index++) {
    const text = inputText(call, names[index] as string);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The file a call works on: from its input, else its structured result (Claude Code's `filePath`). */
function filePathOf(call: ToolCallView): string | undefined {
  return firstInputText(call, FILE_PATH_FIELDS) ?? (stringField(call.structured, 'filePath') || undefined);
}

/**
 * The file a call works on: its path, and its name as summaries, patch headers and failures
 * ("Read src/x.ts — failed: …") show it, relative to the cwd; undefined when unknown.
 */
export function fileSubject(call: ToolCallView): CallSubject | undefined {
  const path = filePathOf(call);
  return path === undefined ? undefined : { name: displayPath(path, call.cwd), path };
}

/** The file a call works on, for a summary: relative to the cwd, "file" when unknown. */
export function shownFilePath(call: ToolCallView): string {
  return fileSubject(call)?.name ?? 'file';
}

/** The directory a call lists, for a summary: relative to the cwd, "." when not given. */
export function shownDirectoryPath(call: ToolCallView): string {
  const path = firstInputText(call, DIRECTORY_PATH_FIELDS);
  return path === undefined ? '.' : displayPath(path, call.cwd);
}
