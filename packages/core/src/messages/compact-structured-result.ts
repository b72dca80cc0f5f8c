import type { JsonValue } from './json-value.js';
import { MAX_MESSAGE_DEPTH } from './parse-message-for-storage.js';
import { TOOL_OUTPUT_THRESHOLD } from './tool-output-limits.js';
import { nestsDeeperThan } from './truncate-deep-json.js';

// The store offloads a big `content`, not a big structured result: this keeps the structured
// result within the same budget (in characters of its strings, a cheap stand-in for bytes).
const BUDGET = TOOL_OUTPUT_THRESHOLD;
// Stores refuse a message nested deeper than MAX_MESSAGE_DEPTH; the result is the message's second level.
const MAX_RESULT_DEPTH = MAX_MESSAGE_DEPTH - 1;

const isContainer = (value: JsonValue): value is JsonValue[] | { [key: string]: JsonValue } =>
  value !== null && typeof value === 'object';

/**
 * A copy of `value` without the objects and arrays that sit deeper than `levels` (`value` is the
 * first level): left out of an object, `null` in an array. Their paths are added to `omitted`.
 */
function withoutDeepValues(value: JsonValue, levels: number, path: string[], omitted: string[]): JsonValue {
  if (!isContainer(value)) return value;
  const fits = (key: string, item: JsonValue) => {
    if (levels > 1 || !isContainer(item)) return true;
    omitted.push([...path, key].join('.'));
    return false;
  };
  const inner = (key: string, item: JsonValue) =>
    withoutDeepValues(item, levels - 1, [...path, key], omitted);
  if (Array.isArray(value))
    return value.map((item, index) => (fits(String(index), item) ? inner(String(index), item) : null));
  // fromEntries keeps a `__proto__` key (JSON.parse makes one) as a key, not a prototype.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => fits(key, item))
      .map(([key, item]) => [key, inner(key, item)]),
  );
}

// The common case, a small result, is measured without allocating.
function stringLength(value: JsonValue): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let total = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) total += stringLength(value[index] as JsonValue);
  } else for (const key in value) total += stringLength(value[key] as JsonValue);
  return total;
}

interface StringField {
  path: string[];
  length: number;
}

function collectStrings(value: JsonValue, path: string[], found: StringField[]): number {
  if (typeof value === 'string') {
    found.push({ path, length: value.length });
    return value.length;
  }
  if (value === null || typeof value !== 'object') return 0;
  let total = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      total += collectStrings(value[index] as JsonValue, [...path, String(index)], found);
    }
    return total;
  }
  for (const key in value) total += collectStrings(value[key] as JsonValue, [...path, key], found);
  return total;
}

function withoutPath(value: JsonValue, path: readonly string[]): JsonValue {
  if (path.length === 0 || value === null || typeof value !== 'object') return value;
  const [key, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(key)] = rest.length === 0 ? null : withoutPath(value[Number(key)] as JsonValue, rest);
    return copy;
  }
  const copy = { ...value };
  if (rest.length === 0) delete copy[key];
  else copy[key] = withoutPath(value[key] as JsonValue, rest);
  return copy;
}

/**
 * A tool's structured result fit to be stored beside its text: as is when its strings total at most
 * `TOOL_OUTPUT_THRESHOLD` characters; otherwise the longest strings are left out (a Bash `stdout`
 * that repeats the 2 MB output, a whole file's `originalFile`) until it fits, and their paths are
 * listed in `omittedFields` (`''` when the result was one long string or list). Objects and arrays
 * nested deeper than a stored message may hold (`MAX_MESSAGE_DEPTH`, less the message's own level)
 * are left out and listed the same way. Nothing is cut in the middle, so what remains is exact: a
 * tool processor missing a field falls back to what it can show without it.
 */
export function compactStructuredResult(structured: JsonValue): JsonValue {
  const omitted: string[] = [];
  const shallow = nestsDeeperThan(structured, MAX_RESULT_DEPTH)
    ? withoutDeepValues(structured, MAX_RESULT_DEPTH, [], omitted)
    : structured;
  if (omitted.length === 0 && stringLength(shallow) <= BUDGET) return shallow;
  if (shallow === null || typeof shallow !== 'object' || Array.isArray(shallow)) {
    return { omittedFields: [''] };
  }
  const strings: StringField[] = [];
  let total = collectStrings(shallow, [], strings);
  strings.sort((a, b) => b.length - a.length);
  let compacted: JsonValue = shallow;
  for (const field of strings) {
    if (total <= BUDGET) break;
    compacted = withoutPath(compacted, field.path);
    omitted.push(field.path.join('.'));
    total -= field.length;
  }
  return { ...(compacted as Record<string, JsonValue>), omittedFields: omitted };
}
