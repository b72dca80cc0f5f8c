import type { JsonSchema } from '@cairn/core';
import { openAIMockProtocol } from '@cairn/testing';
import { propertyTimeout } from '@cairn/vitest-config/load';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toOpenAIStrictSchema } from './openai-strict-schema.js';

/** What the mock (OpenAI's rules) says of a strict `response_format` with `schema`. */
const strictProblem = (schema: JsonSchema) =>
  openAIMockProtocol.requestProblem?.({
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    response_format: { type: 'json_schema', json_schema: { name: 'output', schema, strict: true } },
  });

describe('toOpenAIStrictSchema', () => {
  it('requires every property, closes every object and makes optional properties nullable', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'Full name' },
        age: { type: 'integer', default: 0 },
        kind: { enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string', format: 'uri' }, uniqueItems: true },
        address: {
          type: 'object',
          properties: { city: { type: 'string' }, zip: { type: 'string' } },
          required: ['city'],
        },
        shape: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        ref: { $ref: '#/$defs/point' },
        version: { const: 2 },
      },
      required: ['name', 'version'],
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
    };
    const before = structuredClone(schema);
    const result = toOpenAIStrictSchema(schema);
    expect(schema).toEqual(before);
    expect(result).toEqual({
      strict: true,
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Full name (minLength: 1)' },
          age: { type: ['integer', 'null'] },
          kind: { enum: ['a', 'b', null] },
          tags: {
            type: ['array', 'null'],
            items: { type: 'string', description: '(format: "uri")' },
            description: '(uniqueItems: true)',
          },
          address: {
            type: ['object', 'null'],
            properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } },
            required: ['city', 'zip'],
            additionalProperties: false,
          },
          shape: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
          ref: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'null' }] },
          version: { enum: [2] },
        },
        required: ['name', 'age', 'kind', 'tags', 'address', 'shape', 'ref', 'version'],
        additionalProperties: false,
        $defs: {
          point: {
            type: 'object',
            properties: { x: { type: 'number' } },
            required: ['x'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(strictProblem(result.schema)).toBeUndefined();
  });

  it('sends what strict mode cannot express as it is, with strict false', () => {
    const unexpressible: JsonSchema[] = [
      { type: 'array', items: { type: 'string' } },
      { type: 'string' },
      { anyOf: [{ type: 'object', properties: {}, additionalProperties: false }, { type: 'null' }] },
      { type: 'object' },
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      { type: 'object', additionalProperties: { type: 'number' } },
      { type: 'object', properties: { any: {} } },
      { type: 'object', properties: { a: { description: 'anything' } } },
      { type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } },
      { type: 'object', properties: { a: { not: { type: 'string' } } } },
      { type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } },
      { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
    ];
    for (const schema of unexpressible) {
      expect(toOpenAIStrictSchema(schema), JSON.stringify(schema)).toEqual({ schema, strict: false });
    }
  });

  it('keeps nullable properties as they are and closes an empty object', () => {
    expect(
      toOpenAIStrictSchema({
        type: 'object',
        properties: {
          a: { type: ['string', 'null'] },
          b: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          c: { enum: ['x', null] },
          d: { type: 'object', properties: {}, additionalProperties: false },
        },
      }).schema,
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        c: { enum: ['x', null] },
        d: { type: ['object', 'null'], properties: {}, required: [], additionalProperties: false },
      },
      required: ['a', 'b', 'c', 'd'],
      additionalProperties: false,
    });
  });
});

// Schemas strict mode can express, written the loose way people write them (zod's and valibot's
// output included): optional properties, open-by-default objects, oneOf, const, length limits.
const leaf = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.option(fc.nat(5), { nil: undefined }) }),
  fc.record({ type: fc.constantFrom('number', 'integer', 'boolean') }),
  fc.record({ enum: fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: fc.oneof(fc.string({ maxLength: 5 }), fc.integer()) }),
);
const { schema: schemaArbitrary } = fc.letrec<{
  schema: Record<string, unknown>;
  object: Record<string, unknown>;
}>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('object'),
    fc.record({
      type: fc.constant('array'),
      items: tie('schema'),
      uniqueItems: fc.option(fc.boolean(), { nil: undefined }),
    }),
    fc.record({ oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
  ),
  object: fc
    .dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), tie('schema'), { maxKeys: 4 })
    .chain((properties) =>
      fc.record({
        type: fc.constant('object'),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
        additionalProperties: fc.constantFrom(false, undefined),
      }),
    ),
}));
const clean = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(clean)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, clean(v)]])),
        )
      : value;

describe('toOpenAIStrictSchema (properties)', () => {
  it(
    'turns every expressible object schema into one the strict rules accept, the input untouched',
    () => {
      const root = fc
        .dictionary(fc.constantFrom('a', 'b', 'c', 'd'), schemaArbitrary, { maxKeys: 4 })
        .chain((properties) =>
          fc.record({
            type: fc.constant('object'),
            properties: fc.constant(properties),
            required: fc.subarray(Object.keys(properties)),
          }),
        )
        .map((schema) => clean(schema) as JsonSchema);
      fc.assert(
        fc.property(root, (schema) => {
          const before = structuredClone(schema);
          const result = toOpenAIStrictSchema(schema);
          expect(schema).toEqual(before);
          expect(result.strict).toBe(true);
          expect(strictProblem(result.schema)).toBeUndefined();
          // A property the caller may leave out is one the model may answer null.
          const properties = result.schema.properties as Record<string, Record<string, unknown>>;
          for (const [name, property] of Object.entries(properties)) {
            const optional = !(schema.required as string[]).includes(name);
            const allowsNull =
              (Array.isArray(property.type) && property.type.includes('null')) ||
              (Array.isArray(property.enum) && property.enum.includes(null)) ||
              (Array.isArray(property.anyOf) &&
                property.anyOf.some((branch: { type?: unknown }) => branch.type === 'null'));
            if (optional) expect(allowsNull, name).toBe(true);
          }
        }),
        { numRuns: 100 },
      );
    },
    propertyTimeout(30_000),
  );
});
