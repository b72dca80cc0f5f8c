import type { JsonValue } from '@cairn/core';

type JsonObject = { readonly [key: string]: JsonValue };

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// One name per call, and the own-field check only on a hit: these run several times per tool call.

/** `value`'s own field `name`. Inherited ones never count: a tool input may well have no `constructor` field. */
export function fieldOf(value: unknown, name: string): JsonValue | undefined {
  if (!isJsonObject(value)) return undefined;
  const field = value[name];
  return field !== undefined && Object.hasOwn(value, name) ? field : undefined;
}

/** The field `name` when it holds a string. */
export function stringField(value: unknown, name: string): string | undefined {
  if (!isJsonObject(value)) return undefined;
  const field = value[name];
  return typeof field === 'string' && Object.hasOwn(value, name) ? field : undefined;
}

/** The field `name` when it holds a non-negative safe integer (a count, a line number). */
export function countField(value: unknown, name: string): number | undefined {
  const field = fieldOf(value, name);
  return Number.isSafeInteger(field) && (field as number) >= 0 ? (field as number) : undefined;
}

export function arrayField(value: unknown, name: string): readonly JsonValue[] | undefined {
  const field = fieldOf(value, name);
  return Array.isArray(field) ? field : undefined;
}

/** The strings of an array field (other items skipped), as a new array. */
export function stringsField(value: unknown, name: string): string[] | undefined {
  const items = arrayField(value, name);
  if (items === undefined) return undefined;
  for (let index = 0; index < items.length; index++) {
    if (typeof items[index] !== 'string')
      return items.filter((item): item is string => typeof item === 'string');
  }
  // All strings, as they usually are: copied natively, with no callback per item.
  return items.slice() as string[];
}
