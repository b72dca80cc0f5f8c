import type { JsonValue } from '@cairn/core';

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

// The index after the string whose opening quote is at `at` (skipping escaped quotes), or -1.
function stringEnd(text: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

// A key's text unescaped; undefined when its escapes are not valid JSON.
function keyOf(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

interface ScannedValue {
  end: number;
  /** An object's keys in text order; an array's element count. */
  keys?: string[];
  elements?: number;
}

// The extent of the JSON value starting at `start`. Strings are skipped with indexOf, so the cost
// is in the structure, not the text. Undefined when the text is not a well-formed value there.
function scanValue(text: string, start: number): ScannedValue | undefined {
  const first = text.charCodeAt(start);
  if (first === QUOTE) {
    const end = stringEnd(text, start);
    return end === -1 ? undefined : { end };
  }
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let end = start;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) break;
      end++;
    }
    return end === start ? undefined : { end };
  }
  const isObject = first === OPEN_BRACE;
  const keys: string[] = [];
  let elements = 0;
  let depth = 0;
  // At depth 1 of an object, the next string is a key (after `{` or `,`).
  let keyNext = isObject;
  for (let at = start; at < text.length; ) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (end === -1) return undefined;
      if (depth === 1 && keyNext) {
        const key = keyOf(text.slice(at + 1, end - 1));
        if (key === undefined) return undefined;
        keys.push(key);
        keyNext = false;
      } else if (depth === 1 && !isObject && elements === 0) elements = 1;
      at = end;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === 1 && !isObject && elements === 0) elements = 1;
      depth++;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return isObject ? { end: at + 1, keys } : { end: at + 1, elements };
    } else if (depth === 1 && code === COMMA) {
      if (isObject) keyNext = true;
      else elements++;
    } else if (depth === 1 && !isObject && elements === 0 && !isSpace(code)) elements = 1;
    at++;
  }
  return undefined;
}

function sameKeys(scanned: readonly string[], expected: Record<string, JsonValue>): boolean {
  // Own keys in order, without the array Object.keys makes (a parsed object inherits none).
  let index = 0;
  for (const key in expected) {
    if (!Object.hasOwn(expected, key) || key !== scanned[index]) return false;
    index++;
  }
  return index === scanned.length;
}

// Whether the scanned text is certainly `expected` at the top: the same kind, the same keys in the
// same order (an object), as many elements (an array), or the same text (anything else).
function matches(text: string, start: number, scanned: ScannedValue, expected: JsonValue): boolean {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) return scanned.elements === expected.length;
    return scanned.keys !== undefined && sameKeys(scanned.keys, expected);
  }
  return text.slice(start, scanned.end) === JSON.stringify(expected);
}

const COLON = 58;

// Where the value of key `needle` (the key as written, without its opening quote) starts, from
// `from`; -1 when the key does not occur. A key is a string after `{` or `,` and before `:`
// (spaces allowed around): the same characters inside a string are escaped, so they never are.
// The search leaves the quote out: quotes are everywhere in JSON, and a needle starting with one
// makes indexOf stop at each of them.
function valueAfterKey(text: string, needle: string, from: number): number {
  for (let at = text.indexOf(needle, from + 1); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (text.charCodeAt(at - 1) !== QUOTE) continue;
    let before = at - 2;
    while (before >= 0 && isSpace(text.charCodeAt(before))) before--;
    const previous = text.charCodeAt(before);
    if (previous !== OPEN_BRACE && previous !== COMMA) continue;
    let after = at + needle.length;
    while (isSpace(text.charCodeAt(after))) after++;
    if (text.charCodeAt(after) !== COLON) continue;
    after++;
    while (isSpace(text.charCodeAt(after))) after++;
    return after;
  }
  return -1;
}

// The last key's needle: a caller asks for the same key line after line.
let lastKey: string | undefined;
let lastNeedle = '';

// The key as it is written, without its opening quote (see `valueAfterKey`).
function needleOf(key: string): string {
  if (key !== lastKey) {
    lastNeedle = JSON.stringify(key).slice(1);
    lastKey = key;
  }
  return lastNeedle;
}

/**
 * The JSON text of the value under `key` in `text` (the JSON `expected` was parsed from), so a
 * consumer can keep a value's text instead of serialising it again. Only when it is certain:
 * `key` occurs exactly once as a key outside the value itself (a duplicate key, or the same key in
 * another object, makes it ambiguous), the text is well formed there, and the value has
 * `expected`'s shape at the top (kind, keys in order, element count). Otherwise undefined.
 */
export function jsonValueText(text: string, key: string, expected: JsonValue): string | undefined {
  const needle = needleOf(key);
  const start = valueAfterKey(text, needle, 0);
  if (start === -1) return undefined;
  const scanned = scanValue(text, start);
  if (scanned === undefined || valueAfterKey(text, needle, scanned.end) !== -1) return undefined;
  return matches(text, start, scanned, expected) ? text.slice(start, scanned.end) : undefined;
}
