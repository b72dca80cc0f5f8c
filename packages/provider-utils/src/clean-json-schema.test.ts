import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanJsonSchema, GEMINI_SCHEMA_KEYWORDS } from './clean-json-schema.js';

const gemini = (schema: Record<string, unknown>) => cleanJsonSchema(schema, { target: 'gemini' });

/** Every keyword used at every schema position of `schema` (property names are not keywords). */
function keywordsOf(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  return [
    ...Object.keys(node),
    ...Object.values((node.properties as Record<string, unknown> | undefined) ?? {}).flatMap(keywordsOf),
    ...keywordsOf(node.items),
    ...((node.anyOf as unknown[] | undefined) ?? []).flatMap(keywordsOf),
  ];
}

describe('cleanJsonSchema (gemini)', () => {
  it('drops what Gemini rejects and keeps what it takes', () => {
    expect(
      gemini({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:x',
        title: 'Args',
        type: 'object',
        additionalProperties: false,
        properties: {
          path: { type: 'string', description: 'File path', minLength: 1, default: '.', examples: ['a'] },
          when: { type: 'string', format: 'date-time' },
          email: { type: 'string', format: 'email' },
          count: { type: 'integer', format: 'int32', minimum: 0, maximum: 10, exclusiveMinimum: 0 },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 5, uniqueItems: true },
        },
        required: ['path', 'missing'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path', minLength: 1 },
        when: { type: 'string', format: 'date-time' },
        email: { type: 'string' },
        count: { type: 'integer', format: 'int32', minimum: 0, maximum: 10 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      },
      required: ['path'],
    });
  });

  it('turns null in type, anyOf, oneOf and enum into nullable', () => {
    expect(gemini({ type: ['string', 'null'] })).toEqual({ type: 'string', nullable: true });
    expect(gemini({ anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'n' })).toEqual({
      type: 'integer',
      nullable: true,
      description: 'n',
    });
    expect(gemini({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] })).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
      nullable: true,
    });
    expect(gemini({ enum: ['a', 'b', null] })).toEqual({ type: 'string', enum: ['a', 'b'], nullable: true });
    expect(gemini({ type: ['string', 'integer'], minLength: 2 })).toEqual({
      anyOf: [
        { type: 'string', minLength: 2 },
        { type: 'integer', minLength: 2 },
      ],
    });
  });

  it('turns const into enum, and keeps non-string enums as words', () => {
    expect(gemini({ const: 'fixed' })).toEqual({ type: 'string', enum: ['fixed'] });
    expect(gemini({ type: 'integer', enum: [1, 2], description: 'Level.' })).toEqual({
      type: 'integer',
      description: 'Level. Allowed values: 1, 2.',
    });
  });

  it('inlines $ref and $defs, breaking cycles', () => {
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
    };
    expect(gemini(tree)).toEqual({
      type: 'object',
      properties: {
        root: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { type: 'object' } } },
        },
      },
    });
    expect(
      gemini({
        definitions: { a: { type: 'string' } },
        properties: { x: { $ref: '#/definitions/a', description: 'd' } },
      }),
    ).toEqual({
      properties: { x: { type: 'string', description: 'd' } },
    });
    expect(gemini({ type: 'object', properties: { self: { $ref: '#' } } })).toEqual({
      type: 'object',
      properties: { self: { type: 'object', properties: { self: { type: 'object' } } } },
    });
  });

  it('merges allOf and turns tuples into anyOf items', () => {
    expect(
      gemini({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'number' } }, required: ['b'] },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(gemini({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] })).toEqual({
      type: 'array',
      items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    });
  });

  it('rejects a $ref it cannot resolve with INVALID_ARGUMENT', () => {
    for (const $ref of ['#/$defs/missing', 'https://example.com/schema.json', '#/%E0%A4%A']) {
      expect(() => gemini({ properties: { x: { $ref } } })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('never mutates its input and yields only Gemini keywords, stably', () => {
    const keyword = fc.constantFrom(
      'type',
      'format',
      'description',
      'title',
      'default',
      'examples',
      'const',
      'enum',
      'nullable',
      '$schema',
      '$id',
      'additionalProperties',
      'minimum',
      'maximum',
      'minLength',
      'pattern',
      'uniqueItems',
    );
    const scalar = fc.oneof(
      fc.constantFrom(
        'string',
        'number',
        'integer',
        'boolean',
        'object',
        'array',
        'null',
        'date-time',
        'email',
      ),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.constantFrom('string', 'null', 'integer', 1, 'a')),
    );
    const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.dictionary(keyword, scalar, { maxKeys: 4 }),
        fc.record(
          {
            type: fc.constantFrom('object', ['object', 'null']),
            properties: fc.dictionary(fc.string({ maxLength: 6 }), tie('schema'), { maxKeys: 3 }),
            required: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
            additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
          },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            type: fc.constant('array'),
            items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 3 })),
          },
          { requiredKeys: [] },
        ),
        fc.record({ anyOf: fc.array(tie('schema'), { maxLength: 3 }) }),
        fc.record({ oneOf: fc.array(tie('schema'), { maxLength: 3 }) }),
        fc.record({ allOf: fc.array(tie('schema'), { maxLength: 3 }) }),
        fc.constant({ $ref: '#/$defs/shared' }),
        fc.constant({ $ref: '#' }),
        fc.boolean(),
      ),
    }));
    const allowed = new Set(GEMINI_SCHEMA_KEYWORDS);
    fc.assert(
      fc.property(schema, schema, (body, shared) => {
        const input = { ...(typeof body === 'object' && body !== null ? body : {}), $defs: { shared } };
        const before = structuredClone(input);
        const cleaned = gemini(input);
        expect(input).toEqual(before);
        expect(keywordsOf(cleaned).filter((key) => !allowed.has(key))).toEqual([]);
        expect(gemini(cleaned)).toEqual(cleaned);
      }),
      { numRuns: 100 },
    );
  });
});
