import type { JsonSchema } from '@cairn/core';

/** A schema as `response_format.json_schema` sends it, and whether strict mode can take it. */
export interface OpenAIStrictSchema {
  schema: JsonSchema;
  strict: boolean;
}

type Schema = Record<string, unknown>;

// Annotations strict mode refuses or has no use for: dropped.
const DROPPED = ['$schema', '$id', '$comment', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated'];
// Validation keywords strict mode does not permit: dropped from the schema and kept, in words, in
// the description, so the model still reads them (the caller validates the answer anyway).
const DESCRIBED = ['minLength', 'maxLength', 'minProperties', 'maxProperties', 'uniqueItems'];
// The string formats strict mode takes; any other is described instead.
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
// What strict mode cannot express at all: the schema is then sent as it is, without `strict`.
const UNEXPRESSIBLE = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
];

// A node needs one of these to say what its value is.
const TYPING = ['type', 'anyOf', 'oneOf', 'enum', 'const', '$ref', 'properties'];

/** Thrown inside the walk when a node has no strict form; never leaves this module. */
class NotStrict extends Error {}

/**
 * `schema` in the form OpenAI's strict structured output takes (its documented subset), the input
 * untouched. Every object lists all its properties in `required` and has `additionalProperties:
 * false`; a property that was optional becomes nullable (`type: [t, "null"]`, `null` added to its
 * `enum`, or `anyOf: [schema, { type: "null" }]`), so the model answers `null` where the caller's
 * schema allows it to be left out. `oneOf` becomes `anyOf`, `const` a one-value `enum`; annotations
 * strict mode refuses (`$schema`, `default`, `examples`, …) are dropped; `minLength`, `maxLength`,
 * `minProperties`, `maxProperties`, `uniqueItems` and unsupported `format`s move into the
 * description. A schema strict mode cannot express — a root that is not an object, an open object
 * or map (`additionalProperties` other than `false`, no `properties`), `allOf`, `not`,
 * `if`/`then`/`else`, tuples — is returned as it is with `strict: false`.
 */
export function toOpenAIStrictSchema(schema: JsonSchema): OpenAIStrictSchema {
  try {
    const strict = convert(schema);
    if (strict.type !== 'object' || strict.anyOf !== undefined) throw new NotStrict();
    return { schema: strict, strict: true };
  } catch (error) {
    if (error instanceof NotStrict) return { schema, strict: false };
    throw error;
  }
}

function convert(node: unknown): Schema {
  // `true`, `{}` and a schema without a type allow any value: strict mode has no such type.
  if (!isObject(node) || !TYPING.some((keyword) => node[keyword] !== undefined)) throw new NotStrict();
  if (UNEXPRESSIBLE.some((keyword) => node[keyword] !== undefined)) throw new NotStrict();
  if (Array.isArray(node.items)) throw new NotStrict();
  const result: Schema = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.includes(key)) continue;
    if (DESCRIBED.includes(key) || (key === 'format' && !FORMATS.has(String(value)))) {
      notes.push(`${key}: ${JSON.stringify(value)}`);
      continue;
    }
    result[key] = value;
  }
  if (result.const !== undefined) {
    result.enum = [result.const];
    delete result.const;
  }
  if (result.oneOf !== undefined) {
    result.anyOf = [...asArray(result.anyOf), ...asArray(result.oneOf)];
    delete result.oneOf;
  }
  if (notes.length > 0) {
    const description = typeof result.description === 'string' ? `${result.description} ` : '';
    result.description = `${description}(${notes.join(', ')})`;
  }
  if (Array.isArray(result.anyOf)) result.anyOf = result.anyOf.map(convert);
  if (result.items !== undefined) result.items = convert(result.items);
  for (const defs of ['$defs', 'definitions']) {
    if (isObject(result[defs])) result[defs] = mapValues(result[defs], convert);
  }
  return isObjectSchema(result) ? convertObject(result) : result;
}

function convertObject(node: Schema): Schema {
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) throw new NotStrict();
  const properties = isObject(node.properties) ? node.properties : undefined;
  // `{ type: "object" }` alone is any object; strict mode would make it `{}`.
  if (properties === undefined && node.additionalProperties !== false) throw new NotStrict();
  const required = new Set(asArray(node.required).filter((name) => typeof name === 'string'));
  const converted = mapValues(properties ?? {}, (property, name) => {
    const strict = convert(property);
    return required.has(name) ? strict : nullable(strict);
  });
  return { ...node, properties: converted, required: Object.keys(converted), additionalProperties: false };
}

/** `schema` that also allows `null`: how strict mode says a property may be absent. */
function nullable(schema: Schema): Schema {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null') || (Array.isArray(schema.enum) && schema.enum.includes(null))) return schema;
  if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
    const result: Schema = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) result.enum = [...schema.enum, null];
    return result;
  }
  if (Array.isArray(schema.anyOf)) {
    return schema.anyOf.some((branch) => isObject(branch) && branch.type === 'null')
      ? schema
      : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  return { anyOf: [schema, { type: 'null' }] };
}

function isObjectSchema(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('object') || (schema.type === undefined && isObject(schema.properties));
}

function mapValues(record: Schema, map: (value: unknown, key: string) => Schema): Schema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value, key)]));
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
