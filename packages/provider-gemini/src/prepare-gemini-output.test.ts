import { GEMINI_SCHEMA_KEYWORDS } from '@cairn/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareGeminiOutput } from './prepare-gemini-output.js';

// JSON Schemas as zod and valibot produce them: nested objects and arrays, with the keywords
// Gemini's Schema refuses (additionalProperties, $schema, title, default, const, …).
const leaf = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'integer', minimum: 0 }),
  fc.constant({ type: 'boolean', default: false }),
  fc.constant({ const: 'fixed' }),
  fc.constant({ type: ['string', 'null'], title: 'Maybe' }),
);
const { schema } = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc
      .dictionary(fc.constantFrom('id', 'name', 'tags', 'z', 'a', 'type', 'properties'), tie('schema'), {
        minKeys: 1,
        maxKeys: 4,
      })
      .map((properties) => ({
        type: 'object',
        properties,
        required: Object.keys(properties),
        additionalProperties: false,
      })),
  ),
}));

function visit(node: unknown, check: (schema: Record<string, unknown>) => void): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) visit(item, check);
    return;
  }
  const schemaNode = node as Record<string, unknown>;
  check(schemaNode);
  for (const [key, value] of Object.entries(schemaNode)) {
    if (key === 'properties') for (const child of Object.values(value as object)) visit(child, check);
    else if (key === 'items' || key === 'anyOf') visit(value, check);
  }
}

describe('prepareGeminiOutput', () => {
  it('asks for JSON with a schema of Gemini keywords only, each object’s properties in schema order', () => {
    const allowed = new Set([...GEMINI_SCHEMA_KEYWORDS, 'propertyOrdering']);
    fc.assert(
      fc.property(schema, (input) => {
        const before = structuredClone(input);
        const { responseMimeType, responseSchema } = prepareGeminiOutput({ type: 'json', schema: input });
        expect(input).toEqual(before);
        expect(responseMimeType).toBe('application/json');
        visit(responseSchema, (node) => {
          for (const key of Object.keys(node)) expect(allowed.has(key), key).toBe(true);
          if (node.properties !== undefined) {
            expect(node.propertyOrdering).toEqual(Object.keys(node.properties as object));
          } else expect(node.propertyOrdering).toBeUndefined();
        });
      }),
      { numRuns: 200 },
    );
  });

  it('gives the schema the output’s description when it has none', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(
      prepareGeminiOutput({ type: 'json', schema, description: 'A thing' }).responseSchema,
    ).toMatchObject({
      description: 'A thing',
    });
    expect(
      prepareGeminiOutput({ type: 'json', schema: { ...schema, description: 'Own' }, description: 'Other' })
        .responseSchema.description,
    ).toBe('Own');
  });
});
