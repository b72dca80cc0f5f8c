import type { JsonValue } from '@cairn/core';
import { fitWidth, flattenLines } from './fit-width.js';

// The arguments that say what a call works on, as Cairn's and the agent CLIs' tools name them.
const TELLING_FIELDS = ['command', 'path', 'file_path', 'pattern', 'query', 'url'];
// Room is left for the tool's name and the seconds on a spinner line.
const HINT_WIDTH = 48;

/**
 * What a tool call works on, in a few words for the spinner: its command, path or pattern (paths
 * under `cwd` relative), else its first text argument; '' when it has none.
 */
export function toolInputHint(input: JsonValue, cwd?: string): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const values = [...TELLING_FIELDS.map((field) => input[field]), ...Object.values(input)];
  const text = values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (text === undefined) return '';
  const relative = cwd !== undefined && text.startsWith(`${cwd}/`) ? text.slice(cwd.length + 1) : text;
  return fitWidth(flattenLines(relative), HINT_WIDTH);
}
