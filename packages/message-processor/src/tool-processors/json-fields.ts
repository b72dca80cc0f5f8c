import type { JsonValue } from '@cairn/core';

type JsonObject = { readonly [key: string]: JsonValue };

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first of `names` that `value` holds as its own field. Inherited ones never count: a tool
 * input may well have no `constructor` field.
 */
export function fieldOf(value: unknown, ...names: readonly string[]): JsonValue | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const name of names) if (Object.hasOwn(value, name)) return value[name];
  return undefined;
}

/** The first of `names` that holds a string. */
export function stringField(value: unknown, ...names: readonly string[]): string | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const name of names) {
    if (!Object.hasOwn(value, name)) continue;
    const field = value[name];
    if (typeof field === 'string') return field;
  }
  return undefined;
}

/** The first of `names` that holds a non-negative safe integer (a count, a line number). */
export function countField(value: unknown, ...names: readonly string[]): number | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const name of names) {
    if (!Object.hasOwn(value, name)) continue;
    const field = value[name];
    if (Number.isSafeInteger(field) && (field as number) >= 0) return field as number;
  }
  return undefined;
}

export function arrayField(value: unknown, name: string): readonly JsonValue[] | undefined {
  const field = fieldOf(value, name);
  return Array.isArray(field) ? field : undefined;
}

/** The strings of an array field (other items skipped). */
export function stringsField(value: unknown, name: string): string[] | undefined {
  return arrayField(value, name)?.filter((item): item is string => typeof item === 'string');
}
