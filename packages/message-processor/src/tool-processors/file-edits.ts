import type { JsonValue } from '@cairn/core';
import { arrayField, countField, fieldOf, stringField } from './json-fields.js';

/** One find-and-replace a tool was asked to make. */
export interface FileEdit {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

function editOf(value: unknown): FileEdit | undefined {
  const oldString = stringField(value, 'old_string');
  const newString = stringField(value, 'new_string');
  if (oldString === undefined || newString === undefined) return undefined;
  const replaceAll =
    fieldOf(value, 'replace_all') === true ||
    fieldOf(value, 'allow_multiple') === true ||
    (countField(value, 'expected_replacements') ?? 1) > 1;
  return { oldString, newString, replaceAll };
}

/** The edit of an Edit-like input (`old_string`, `new_string`, `replace_all` / `allow_multiple`). */
export function singleEditOf(input: JsonValue): FileEdit[] {
  const edit = editOf(input);
  return edit === undefined ? [] : [edit];
}

/** The edits of a MultiEdit-like input (`edits: [{ old_string, new_string, replace_all? }]`). */
export function multipleEditsOf(input: JsonValue): FileEdit[] {
  return (arrayField(input, 'edits') ?? []).flatMap((item) => editOf(item) ?? []);
}

/**
 * `content` with `edits` made in order, each on the result of the one before; undefined when
 * there is none or one does not apply (its text is not there).
 */
export function applyEdits(content: string, edits: readonly FileEdit[]): string | undefined {
  if (edits.length === 0) return undefined;
  let result = content;
  for (const { oldString, newString, replaceAll } of edits) {
    // An empty old string creates the file (Gemini CLI's replace); it cannot be found in text.
    if (oldString === '') {
      if (result !== '') return undefined;
      result = newString;
    } else {
      const at = result.indexOf(oldString);
      if (at === -1) return undefined;
      // Spliced in, not String.replace: the new text goes in as is, `$&` and all.
      result = replaceAll
        ? result.split(oldString).join(newString)
        : result.slice(0, at) + newString + result.slice(at + oldString.length);
    }
  }
  return result;
}
