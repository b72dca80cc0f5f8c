import type { JsonValue } from './json-value.js';
import { MAX_MESSAGE_DEPTH } from './parse-message-for-storage.js';

/**
 * How deep a tool's input may nest (the input is the first level). A display message holds it at
 * its third level (`message.toolExecution.input`), so an input within this limit never makes a
 * message nest deeper than `MAX_MESSAGE_DEPTH`.
 */
export const MAX_TOOL_INPUT_DEPTH = MAX_MESSAGE_DEPTH - 2;

const isContainer = (value: JsonValue): value is JsonValue[] | { [key: string]: JsonValue } =>
  value !== null && typeof value === 'object';

/**
 * Whether objects or arrays nest more than `levels` deep in `value` (itself the first). Stops
 * there, so it recurses at most `levels` times whatever the value.
 */
export function nestsDeeperThan(value: JsonValue, levels: number): boolean {
  if (!isContainer(value)) return false;
  return levels === 0 || containsDeeperThan(value, levels - 1);
}

// Whether an item of `container` nests more than `levels` deep. Leaves are skipped here, without a
// call each: it runs on every tool input, most of whose fields are strings.
function containsDeeperThan(container: JsonValue[] | { [key: string]: JsonValue }, levels: number): boolean {
  if (Array.isArray(container)) {
    for (let index = 0; index < container.length; index++) {
      const item = container[index] as JsonValue;
      if (isContainer(item) && (levels === 0 || containsDeeperThan(item, levels - 1))) return true;
    }
    return false;
  }
  for (const key in container) {
    const item = container[key] as JsonValue;
    if (isContainer(item) && (levels === 0 || containsDeeperThan(item, levels - 1))) return true;
  }
  return false;
}

/** What replaces each object or array that sits deeper than `levels` (see `truncateDeepJson`). */
export function truncatedJsonMarker(levels: number): string {
  return `[truncated: nested deeper than ${levels} levels]`;
}

/**
 * `value` with every object or array deeper than `levels` (`value` is the first level) replaced by
 * the string `truncatedJsonMarker(levels)`, and `truncated: true`; `value` itself, untouched, when
 * it fits. A hostile input nested thousands of levels deep (valid JSON) would otherwise overflow
 * the stack of `JSON.stringify` and of every walk after it. The walk recurses at most `levels` times.
 */
export function truncateDeepJson(value: JsonValue, levels: number): { value: JsonValue; truncated: boolean } {
  if (!nestsDeeperThan(value, levels)) return { value, truncated: false };
  return { value: truncated(value, levels, truncatedJsonMarker(levels)), truncated: true };
}

function truncated(value: JsonValue, levels: number, marker: string): JsonValue {
  if (!isContainer(value)) return value;
  if (levels === 0) return marker;
  if (Array.isArray(value)) return value.map((item) => truncated(item, levels - 1, marker));
  const copy: { [key: string]: JsonValue } = {};
  // defineProperty keeps a `__proto__` key (JSON.parse makes one) as a key, not a prototype.
  for (const key in value)
    Object.defineProperty(copy, key, {
      value: truncated(value[key] as JsonValue, levels - 1, marker),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}
