import { z } from 'zod';
import { checkRoleRules } from './role-rules.js';

// Stores validate every message they append, and a zod parse is most of the CPU time of a
// durable append. This check accepts the common shapes directly; anything it does not recognise
// (other fields, odd values) goes to the schema, which stays the single definition of "valid".
// It must never accept what the schema refuses: a property test holds it to that.

// The schema's own `createdAt` pattern (zod's ISO datetime with an offset).
const DATETIME = z.core.regexes.datetime({ offset: true, local: false, precision: null });

const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system', 'tool']);
const MODES: ReadonlySet<unknown> = new Set(['chat', 'agent', 'run']);

const nonEmptyString = (value: unknown) => typeof value === 'string' && value.length > 0;
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

const isPlainArray = (value: unknown): value is unknown[] =>
  Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;

function isPositiveInteger(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

const REJECT = Symbol('reject');
type Check = (value: unknown) => unknown;

/** A check that passes the value itself through, or rejects it. */
const when =
  (test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? value : REJECT;

// Tool calls are copied as they are checked, each field read once, so the role rules run on the
// values that passed: not on an array whose holes, getters or own methods could say otherwise.
function copyToolCall(value: unknown): unknown {
  if (!isPlainObject(value) || Object.keys(value).length !== 3) return REJECT;
  const { id, type, function: fn } = value;
  if (!nonEmptyString(id) || type !== 'function' || !isPlainObject(fn) || Object.keys(fn).length !== 2)
    return REJECT;
  const { name, arguments: args } = fn;
  if (!nonEmptyString(name) || typeof args !== 'string') return REJECT;
  return { id, type, function: { name, arguments: args } };
}

function copyToolCalls(value: unknown): unknown {
  if (!isPlainArray(value)) return REJECT;
  const copies: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    const copy = copyToolCall(value[index]);
    if (copy === REJECT) return REJECT;
    copies.push(copy);
  }
  return copies;
}

const TOKEN_COUNTS: ReadonlySet<string> = new Set([
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
]);

// A usage of known counts only (the schema would drop any other key: it goes there then), copied as read.
function copyTokenUsage(value: unknown): unknown {
  if (!isPlainObject(value)) return REJECT;
  const copy: Record<string, number> = {};
  for (const key of Object.keys(value)) {
    const count = value[key];
    if (!TOKEN_COUNTS.has(key) || !Number.isSafeInteger(count) || (count as number) < 0) return REJECT;
    copy[key] = count as number;
  }
  return copy.inputTokens === undefined || copy.outputTokens === undefined ? REJECT : copy;
}

/** The fields this check knows, each with a check a present (not undefined) value must pass. */
const FIELD_CHECKS: Record<string, Check> = {
  id: when(nonEmptyString),
  role: when((value) => ROLES.has(value)),
  createdAt: when((value) => typeof value === 'string' && DATETIME.test(value)),
  content: when((value) => value === null || typeof value === 'string'),
  tool_calls: copyToolCalls,
  tool_call_id: when(nonEmptyString),
  isError: when(isBoolean),
  interrupted: when(isBoolean),
  partType: when(nonEmptyString),
  toolName: when((value) => typeof value === 'string'),
  duration: when((value) => typeof value === 'number' && Number.isFinite(value) && value >= 0),
  isCollapsed: when(isBoolean),
  errorCode: when(nonEmptyString),
  mode: when((value) => MODES.has(value)),
  runId: when(nonEmptyString),
  agentId: when(nonEmptyString),
  includeInContext: when(isBoolean),
  fullOutputPath: when(nonEmptyString),
  seq: when(isPositiveInteger),
  branchFrom: when(isPositiveInteger),
  usage: copyTokenUsage,
};
const REQUIRED_FIELDS = ['id', 'role', 'createdAt'];

// How deep the walk of a JSON field goes: anything deeper (or a cycle) is the schema's call.
const MAX_JSON_DEPTH = 64;

/** A plain object whose keys are all ordinary (no symbol, hidden or `__proto__` key), each value passing `test`. */
function isRecordOf(value: unknown, test: (item: unknown, key: string) => boolean): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (Reflect.ownKeys(value).length !== keys.length) return false;
  for (const key of keys) if (key === '__proto__' || !test(value[key], key)) return false;
  return true;
}

/** Every element there (no hole) and passing `test`, read by index (not through the array's own methods). */
function isArrayOf(value: unknown[], test: (item: unknown) => boolean): boolean {
  for (let index = 0; index < value.length; index++) {
    if (!Object.hasOwn(value, index) || !test(value[index])) return false;
  }
  return true;
}

/** A value `z.json()` accepts, each part read once: no Date, NaN, sparse or subclassed array. */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth >= MAX_JSON_DEPTH) return false;
  const item = (element: unknown) => isJsonValue(element, depth + 1);
  return isPlainArray(value) ? isArrayOf(value, item) : isRecordOf(value, item);
}

/**
 * The checks of the JSON fields (`structuredResult`, `providerMetadata`, `reasoning`), each JSON value
 * tested by `json`. The fields of a plain JSON copy (parseMessageForStorage makes one: no NaN, Date,
 * cycle or getter is left) need no walk: every value in them is JSON, so only their shape is checked.
 */
function jsonFieldChecks(json: (value: unknown) => boolean): Record<string, Check> {
  // Namespace → record of JSON values.
  const isProviderMetadata = (value: unknown) =>
    isRecordOf(value, (namespace, key) => key.length > 0 && isRecordOf(namespace, json));
  const isReasoningPart = (value: unknown) => {
    if (!isPlainObject(value)) return false;
    const { text, redacted, providerMetadata } = value;
    return (
      typeof text === 'string' &&
      (redacted === undefined || isBoolean(redacted)) &&
      (providerMetadata === undefined || isProviderMetadata(providerMetadata))
    );
  };
  return {
    structuredResult: when(json),
    providerMetadata: when(isProviderMetadata),
    reasoning: when((value) => isPlainArray(value) && isArrayOf(value, isReasoningPart)),
  };
}
const FIELD_CHECKS_ANY_VALUE = { ...FIELD_CHECKS, ...jsonFieldChecks((value) => isJsonValue(value)) };
const FIELD_CHECKS_PLAIN_JSON = { ...FIELD_CHECKS, ...jsonFieldChecks(() => true) };

/**
 * Builds the check for a schema with these fields. It returns true only for a message of a common
 * shape that certainly passes the schema; false means "ask the schema", not "invalid". Schema
 * fields it has no test for (nested shapes, fields added later) send any message carrying them to
 * the schema. With `plainJson`, the check is for plain JSON copies only and also accepts the JSON
 * fields (`structuredResult`, `providerMetadata`, `reasoning`) itself.
 */
export function conversationMessageFastCheck(
  schemaFields: readonly string[],
  { plainJson = false }: { plainJson?: boolean } = {},
): (value: unknown) => boolean {
  const checks = plainJson ? FIELD_CHECKS_PLAIN_JSON : FIELD_CHECKS_ANY_VALUE;
  const checkedFields = Object.entries(checks);
  const unknownToCheck = checkedFields.filter(([field]) => !schemaFields.includes(field));
  if (unknownToCheck.length > 0)
    throw new Error(`fast check tests fields the schema lacks: ${unknownToCheck}`);
  const schemaOnlyFields = schemaFields.filter((field) => !Object.hasOwn(checks, field));
  return (value) => passes(value, checkedFields, schemaOnlyFields);
}

function passes(
  value: unknown,
  checkedFields: readonly (readonly [string, Check])[],
  schemaOnlyFields: readonly string[],
): boolean {
  try {
    if (!isPlainObject(value)) return false;
    // Like the schema, read the fields it defines and ignore the rest (unknown fields are allowed).
    // Each is read once; the role rules then run on what was read.
    for (const field of schemaOnlyFields) if (value[field] !== undefined) return false;
    const snapshot: Record<string, unknown> = {};
    for (const [field, check] of checkedFields) {
      const fieldValue = value[field];
      if (fieldValue === undefined) continue;
      const checked = check(fieldValue);
      if (checked === REJECT) return false;
      snapshot[field] = checked;
    }
    for (const field of REQUIRED_FIELDS) if (snapshot[field] === undefined) return false;
    let roleRulesHold = true;
    checkRoleRules(
      snapshot as Parameters<typeof checkRoleRules>[0],
      {
        addIssue: () => {
          roleRulesHold = false;
        },
      } as unknown as z.RefinementCtx,
    );
    return roleRulesHold;
  } catch {
    // A throwing getter or a proxy: the schema decides (and reports) it.
    return false;
  }
}
