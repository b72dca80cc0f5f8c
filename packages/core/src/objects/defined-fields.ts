/** The keys of `T` whose value may be `undefined` (declared optional or typed `| undefined`). */
export type MaybeUndefinedKeys<T> = {
  [K in keyof T]-?: undefined extends T[K] ? K : object extends Pick<T, K> ? K : never;
}[keyof T];

/**
 * `T` with every key that may hold `undefined` turned into an optional property without `undefined`:
 * the shape `exactOptionalPropertyTypes` wants for "present with a value, or absent".
 */
export type DefinedFields<T> = {
  [K in Exclude<keyof T, MaybeUndefinedKeys<T>>]: T[K];
} & {
  [K in MaybeUndefinedKeys<T>]?: Exclude<T[K], undefined>;
} extends infer Flat
  ? { [K in keyof Flat]: Flat[K] }
  : never;

/**
 * Copies the fields of `fields` whose value is not `undefined`, so an absent option stays absent
 * instead of becoming a key that holds `undefined` (which `'key' in`, JSON, and zod all see).
 *
 * `{ ...base, ...definedFields({ signal, model }) }` replaces one `...definedFields({ x })`
 * spread per field. Meant for object literals written in code: only own enumerable keys are read.
 */
export function definedFields<T extends object>(fields: T): DefinedFields<T> {
  // A plain loop: this runs per event and per request, so no entries/fromEntries arrays.
  const copy: Record<string, unknown> = {};
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined && Object.hasOwn(fields, key)) copy[key] = value;
  }
  return copy as DefinedFields<T>;
}
