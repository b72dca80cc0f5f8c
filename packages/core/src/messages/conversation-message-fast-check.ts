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

function isSimpleToolCall(value: unknown): boolean {
  if (!isPlainObject(value) || Object.keys(value).length !== 3) return false;
  const { id, type, function: fn } = value;
  return (
    nonEmptyString(id) &&
    type === 'function' &&
    isPlainObject(fn) &&
    Object.keys(fn).length === 2 &&
    nonEmptyString(fn.name) &&
    typeof fn.arguments === 'string'
  );
}

/** The fields this check knows, each with a test a present (not undefined) value must pass. */
const FIELD_CHECKS: Record<string, (value: unknown) => boolean> = {
  id: nonEmptyString,
  role: (value) => ROLES.has(value),
  createdAt: (value) => typeof value === 'string' && DATETIME.test(value),
  content: (value) => value === null || typeof value === 'string',
  tool_calls: (value) => Array.isArray(value) && value.every(isSimpleToolCall),
  tool_call_id: nonEmptyString,
  isError: isBoolean,
  partType: nonEmptyString,
  toolName: (value) => typeof value === 'string',
  duration: (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
  isCollapsed: isBoolean,
  mode: (value) => MODES.has(value),
  runId: nonEmptyString,
  agentId: nonEmptyString,
  includeInContext: isBoolean,
  fullOutputPath: nonEmptyString,
  seq: (value) => Number.isSafeInteger(value) && (value as number) > 0,
};
const CHECKED_FIELDS = Object.entries(FIELD_CHECKS);
const REQUIRED_FIELDS = ['id', 'role', 'createdAt'];

/**
 * Builds the check for a schema with these fields. It returns true only for a message of a common
 * shape that certainly passes the schema; false means "ask the schema", not "invalid". Schema
 * fields it has no test for (nested shapes, fields added later) send any message carrying them to
 * the schema.
 */
export function conversationMessageFastCheck(schemaFields: readonly string[]): (value: unknown) => boolean {
  const unknownToCheck = CHECKED_FIELDS.filter(([field]) => !schemaFields.includes(field));
  if (unknownToCheck.length > 0)
    throw new Error(`fast check tests fields the schema lacks: ${unknownToCheck}`);
  const schemaOnlyFields = schemaFields.filter((field) => !Object.hasOwn(FIELD_CHECKS, field));
  return (value) => passes(value, schemaOnlyFields);
}

function passes(value: unknown, schemaOnlyFields: readonly string[]): boolean {
  try {
    if (!isPlainObject(value)) return false;
    // Like the schema, read the fields it defines and ignore the rest (unknown fields are allowed).
    for (const field of REQUIRED_FIELDS) if (value[field] === undefined) return false;
    for (const field of schemaOnlyFields) if (value[field] !== undefined) return false;
    for (const [field, check] of CHECKED_FIELDS) {
      const fieldValue = value[field];
      if (fieldValue !== undefined && !check(fieldValue)) return false;
    }
    let roleRulesHold = true;
    checkRoleRules(
      value as Parameters<typeof checkRoleRules>[0],
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
