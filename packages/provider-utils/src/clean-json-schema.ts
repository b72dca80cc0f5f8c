import { CairnError, definedFields, type JsonSchema } from '@cairn/core';

/** A provider whose tool schemas accept only a subset of JSON Schema. */
export type JsonSchemaTarget = 'gemini';

export interface CleanJsonSchemaOptions {
  target: JsonSchemaTarget;
}

/** The keywords of the OpenAPI 3.0 subset Gemini's function declarations take. */
export const GEMINI_SCHEMA_KEYWORDS: readonly string[] = [
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'anyOf',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'pattern',
];

const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};
const COUNT_KEYWORDS = [
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
] as const;
const BOUND_KEYWORDS = ['minimum', 'maximum'] as const;

type Schema = Record<string, unknown>;

interface Context {
  root: unknown;
  /** The `$ref`s being inlined around this node: meeting one again is a cycle. */
  resolving: readonly string[];
}

/**
 * A copy of `schema` in the JSON Schema subset `target` accepts; the input is never modified. For
 * Gemini: `$ref`s are inlined (a recursive one becomes an open schema of its type), `const`
 * becomes `enum`, `null` in `type`/`anyOf`/`oneOf`/`enum` becomes `nullable`, `oneOf` becomes
 * `anyOf`, `allOf` is merged, tuples become `anyOf` items, and everything else Gemini rejects
 * (`$schema`, `$id`, `additionalProperties`, `default`, `examples`, `title`, unknown `format`s, …)
 * is dropped. An unresolvable `$ref` throws `INVALID_ARGUMENT`.
 */
export function cleanJsonSchema(schema: JsonSchema, _options: CleanJsonSchemaOptions): JsonSchema {
  return clean(schema, { root: schema, resolving: [] });
}

function clean(node: unknown, context: Context): Schema {
  if (!isObject(node)) return {}; // `true` (and anything not a schema) allows any value.
  if (typeof node.$ref === 'string') return cleanRef(node, node.$ref, context);
  if (Array.isArray(node.type) && node.type.filter((type) => type !== 'null').length > 1) {
    // ["string", "number"] → one anyOf branch per type, each with the keywords that apply to it.
    const { type, description, ...rest } = node;
    const branches = (type as unknown[]).map((each) => ({ ...rest, type: each }));
    return clean({ description, anyOf: branches }, context);
  }
  const union = [...asArray(node.anyOf), ...asArray(node.oneOf)];
  if (union.length > 0) return cleanUnion(node, union, context);
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    return allOf.reduce<Schema>(
      (merged, branch) => mergeSchemas(merged, clean(branch, context)),
      clean(rest, context),
    );
  }
  return cleanPlain(node, context);
}

function cleanRef(node: Schema, ref: string, context: Context): Schema {
  const target = resolvePointer(context.root, ref);
  const { $ref: _ref, ...siblings } = node;
  if (context.resolving.includes(ref)) {
    const type = isObject(target) && typeof target.type === 'string' ? target.type : undefined;
    return clean({ ...siblings, ...definedFields({ type }) }, context);
  }
  return clean(
    { ...(isObject(target) ? target : {}), ...siblings },
    { ...context, resolving: [...context.resolving, ref] },
  );
}

function cleanUnion(node: Schema, union: readonly unknown[], context: Context): Schema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
  const branches = union.filter((branch) => !isNullSchema(branch)).map((branch) => clean(branch, context));
  const nullable = branches.length < union.length || rest.nullable === true;
  const parent = clean(rest, context);
  const merged = branches.length === 1 ? mergeSchemas(parent, branches[0] as Schema) : parent;
  if (branches.length > 1) merged.anyOf = branches;
  if (nullable) merged.nullable = true;
  return merged;
}

function cleanPlain(node: Schema, context: Context): Schema {
  const result: Schema = {};
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const type = types.find((each): each is string => typeof each === 'string' && GEMINI_TYPES.has(each));
  let nullable = node.nullable === true || types.includes('null');
  const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  let enumValues: string[] | undefined;
  let description = typeof node.description === 'string' ? node.description : undefined;
  if (values !== undefined) {
    if (values.includes(null)) nullable = true;
    const present = values.filter((value) => value !== null);
    if (present.every((value) => typeof value === 'string')) enumValues = present as string[];
    // Gemini enums are strings only; other allowed values still reach the model in words.
    else
      description = [
        description,
        `Allowed values: ${present.map((value) => JSON.stringify(value)).join(', ')}.`,
      ]
        .filter(Boolean)
        .join(' ');
  }
  const resolvedType = type ?? (enumValues !== undefined ? 'string' : undefined);
  if (resolvedType !== undefined) result.type = resolvedType;
  if (typeof node.format === 'string' && GEMINI_FORMATS[resolvedType ?? '']?.includes(node.format))
    result.format = node.format;
  if (description !== undefined) result.description = description;
  if (nullable) result.nullable = true;
  if (enumValues !== undefined && enumValues.length > 0) result.enum = enumValues;
  const items = cleanItems(node, context);
  if (items !== undefined) result.items = items;
  if (isObject(node.properties) && Object.keys(node.properties).length > 0) {
    const properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, property]) => [name, clean(property, context)]),
    );
    result.properties = properties;
    const required = asArray(node.required).filter(
      (name): name is string => typeof name === 'string' && Object.hasOwn(properties, name),
    );
    if (required.length > 0) result.required = [...new Set(required)];
  }
  for (const keyword of COUNT_KEYWORDS) {
    const value = node[keyword];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) result[keyword] = value;
  }
  for (const keyword of BOUND_KEYWORDS) {
    if (typeof node[keyword] === 'number' && Number.isFinite(node[keyword])) result[keyword] = node[keyword];
  }
  if (typeof node.pattern === 'string') result.pattern = node.pattern;
  return result;
}

/** Gemini takes one `items` schema: a tuple (`prefixItems`, array `items`) becomes their anyOf. */
function cleanItems(node: Schema, context: Context): Schema | undefined {
  const tuple = Array.isArray(node.items)
    ? node.items
    : Array.isArray(node.prefixItems)
      ? node.prefixItems
      : undefined;
  if (tuple !== undefined) {
    if (tuple.length === 0) return undefined;
    return tuple.length === 1 ? clean(tuple[0], context) : clean({ anyOf: tuple }, context);
  }
  return node.items === undefined ? undefined : clean(node.items, context);
}

/** `allOf` and single-branch unions: properties and `required` combine, other keywords: first wins. */
function mergeSchemas(base: Schema, extra: Schema): Schema {
  const merged: Schema = { ...extra, ...base };
  if (isObject(base.properties) || isObject(extra.properties)) {
    merged.properties = {
      ...(extra.properties as Schema | undefined),
      ...(base.properties as Schema | undefined),
    };
  }
  const required = [...asArray(base.required), ...asArray(extra.required)];
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw unresolvable(ref);
  let target = root;
  let path: string;
  try {
    path = decodeURIComponent(ref.slice(1));
  } catch {
    throw unresolvable(ref);
  }
  for (const token of path === '' ? [] : path.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(target) && !Array.isArray(target)) throw unresolvable(ref);
    if (!Object.hasOwn(target, key)) throw unresolvable(ref);
    target = (target as Schema)[key];
  }
  return target;
}

function isNullSchema(schema: unknown): boolean {
  return isObject(schema) && (schema.type === 'null' || (schema.const === null && schema.type === undefined));
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function unresolvable(ref: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', `cannot resolve the JSON Schema $ref ${JSON.stringify(ref)}`, {
    details: { ref },
  });
}
