/**
 * `record[key]` for a key the record itself holds. A CLI's names are untrusted strings: a plain
 * lookup of `toString` or `constructor` would return a function inherited from `Object.prototype`.
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
