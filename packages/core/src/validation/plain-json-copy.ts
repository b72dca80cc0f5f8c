import { formatIssuePath, invalidValueError } from './validate.js';

// JSON.stringify does not fail on everything it cannot hold: it calls toJSON, turns a Map into {},
// NaN and array holes into null, and drops functions. A store that validated a value and then wrote
// its JSON would acknowledge one thing and keep another. So a value is copied into its plain form
// first, each property read once, refusing whatever JSON would change; the copy is what is
// validated and written. The walk recurses at most `maxDepth` levels, so it cannot overflow the stack.

/** A refusal on its way up the walk, collecting the keys it passes through. */
class NotPlainJson extends Error {
  readonly path: PropertyKey[] = [];
}

interface Walk {
  readonly maxDepth: number;
  /** The objects and arrays from the root down to the one being copied. */
  readonly ancestors: object[];
}

function copyPrimitive(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlainJson(`${value} is not a JSON number (JSON stores null)`);
      // JSON has no -0: the copy holds the 0 a reload returns.
      return value === 0 ? 0 : value;
    case 'bigint':
      throw new NotPlainJson('a BigInt is not JSON: store it as a string or a number');
    case 'undefined':
      throw new NotPlainJson('undefined is not JSON (in an array, JSON stores null)');
    default:
      throw new NotPlainJson(`a ${typeof value} is not JSON`);
  }
}

// Another realm's (a vm context's) Object.prototype and Array.prototype count as plain too.
function isObjectPrototype(prototype: object | null): boolean {
  return (
    prototype === Object.prototype ||
    prototype === null ||
    (Object.getPrototypeOf(prototype) === null && Object.hasOwn(prototype, 'isPrototypeOf'))
  );
}

// Array.prototype is itself an array; the prototype of a subclass of Array is not.
function isArrayPrototype(prototype: object | null): boolean {
  return prototype === Array.prototype || Array.isArray(prototype);
}

// An object made by `Object.create(other)` has no class to name.
function describeObject(prototype: object | null): string {
  const maker = (prototype as { constructor?: unknown } | null)?.constructor;
  const name = typeof maker === 'function' && maker.prototype === prototype ? maker.name : '';
  return name === '' ? 'an object with a custom prototype' : `an instance of ${name}`;
}

/** A refusal, or whatever reading a value threw (a getter, a proxy trap) as one. */
function asRefusal(error: unknown): NotPlainJson {
  if (error instanceof NotPlainJson) return error;
  return new NotPlainJson(`reading it threw: ${error instanceof Error ? error.message : String(error)}`);
}

function atKey(error: unknown, key: PropertyKey): NotPlainJson {
  const refusal = asRefusal(error);
  refusal.path.unshift(key);
  return refusal;
}

function copyArray(value: readonly unknown[], walk: Walk): unknown[] {
  const copy: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    try {
      copy.push(copyValue(value[index], walk));
    } catch (error) {
      throw atKey(error, index);
    }
  }
  return copy;
}

function copyObject(value: Record<string, unknown>, walk: Walk): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    try {
      const item = value[key];
      // JSON leaves the key out, like an optional field that is absent.
      if (item === undefined) continue;
      const itemCopy = copyValue(item, walk);
      // Assigning `__proto__` would set the copy's prototype; JSON.parse makes it an own key.
      if (key === '__proto__')
        Object.defineProperty(copy, key, {
          value: itemCopy,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else copy[key] = itemCopy;
    } catch (error) {
      throw atKey(error, key);
    }
  }
  return copy;
}

function copyValue(value: unknown, walk: Walk): unknown {
  if (value === null) return null;
  if (typeof value !== 'object') return copyPrimitive(value);
  const { ancestors, maxDepth } = walk;
  if (ancestors.includes(value)) throw new NotPlainJson('a cycle: the value contains itself');
  if (ancestors.length >= maxDepth) throw new NotPlainJson(`nested deeper than ${maxDepth} levels`);
  const isArray = Array.isArray(value);
  const prototype = Object.getPrototypeOf(value);
  if (!(isArray ? isArrayPrototype(prototype) : isObjectPrototype(prototype)))
    throw new NotPlainJson(`${describeObject(prototype)} is not plain JSON: pass a plain object or array`);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    throw new NotPlainJson('an object with a toJSON method: JSON would store what toJSON returns');
  ancestors.push(value);
  const copy = isArray ? copyArray(value, walk) : copyObject(value as Record<string, unknown>, walk);
  ancestors.pop();
  return copy;
}

/**
 * A copy of `value` that JSON holds exactly: plain objects (their `undefined` properties left out,
 * as JSON does), arrays, strings, finite numbers (`-0` becomes `0`), booleans and null, nested at
 * most `maxDepth` levels (the value itself is the first). Anything else (a `toJSON` method, a Date,
 * a Map, a class instance, a BigInt, a function, a symbol, NaN, Infinity, `undefined` or a hole in an
 * array, a cycle, a getter that throws) throws `INVALID_MESSAGE` naming where it is.
 */
export function copyPlainJson(value: unknown, maxDepth: number, what: string): unknown {
  try {
    return copyValue(value, { maxDepth, ancestors: [] });
  } catch (error) {
    const refusal = asRefusal(error);
    throw invalidValueError(what, [{ path: formatIssuePath(refusal.path), message: refusal.message }]);
  }
}
