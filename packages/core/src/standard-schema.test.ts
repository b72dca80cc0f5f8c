import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CairnError } from './errors/cairn-error.js';
import {
  assertStandardSchema,
  type StandardSchemaV1,
  standardSchemaJsonSchema,
  validateStandardSchema,
} from './standard-schema.js';

type Segment = PropertyKey | { key: PropertyKey };

// A minimal Standard Schema from a library Cairn knows nothing about: issues at the given paths,
// optionally async, optionally with the Standard JSON Schema interface.
function foreignSchema(
  options: { paths?: Segment[][]; async?: boolean; jsonSchema?: Record<string, unknown> } = {},
): StandardSchemaV1<unknown, { ok: true }> {
  const result = () =>
    options.paths === undefined
      ? { value: { ok: true as const } }
      : { issues: options.paths.map((path) => ({ message: 'bad', path })) };
  const standard = {
    version: 1 as const,
    vendor: 'acme',
    validate: () => (options.async === true ? Promise.resolve(result()) : result()),
    ...(options.jsonSchema === undefined
      ? {}
      : {
          jsonSchema: { input: (target: unknown) => ({ ...options.jsonSchema, target }), output: () => ({}) },
        }),
  };
  return { '~standard': standard } as StandardSchemaV1<unknown, { ok: true }>;
}

const jsonOptions = { what: 'Tool "t"', jsonSchemaOption: 'inputJsonSchema' };

function thrown(run: () => unknown): CairnError {
  try {
    run();
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('assertStandardSchema', () => {
  it('accepts zod 4 and any Standard Schema v1', () => {
    const schema = z.object({ a: z.string() });
    expect(assertStandardSchema(schema, 'x')).toBe(schema);
    const foreign = foreignSchema();
    expect(assertStandardSchema(foreign, 'x')).toBe(foreign);
  });

  it('refuses anything else with UNSUPPORTED_SCHEMA naming what it got and what works', () => {
    // The shape of a zod schema before 3.24: `_def`, no `~standard`.
    const oldZod = thrown(() => assertStandardSchema({ _def: {}, parse: () => ({}) }, 'Tool "t" input'));
    expect(oldZod.code).toBe('UNSUPPORTED_SCHEMA');
    expect(oldZod.message).toMatch(/^Tool "t" input: got a zod schema older than zod 3\.24.*Standard Schema/);
    expect(oldZod.details).toMatchObject({ vendor: 'zod' });
    const plain = thrown(() => assertStandardSchema({ type: 'object' }, 'x'));
    expect(plain.message).toMatch(
      /got object, not a schema; expected a Standard Schema validator.*zod 4, valibot 1, arktype 2/,
    );
    expect(thrown(() => assertStandardSchema(undefined, 'x')).message).toMatch(/got undefined, not a schema/);
    const version2 = { '~standard': { version: 2, vendor: 'future', validate: () => ({ value: 1 }) } };
    expect(thrown(() => assertStandardSchema(version2, 'x')).message).toMatch(
      /got a future schema without a usable Standard Schema v1 interface/,
    );
  });
});

describe('standardSchemaJsonSchema', () => {
  it('makes zod 4 JSON Schema of the input side, without $schema, leaving unrepresentable fields open', () => {
    const schema = z.object({ n: z.string().transform(Number), at: z.date().optional() });
    expect(standardSchemaJsonSchema(schema, jsonOptions)).toEqual({
      type: 'object',
      properties: { n: { type: 'string' }, at: {} },
      required: ['n'],
    });
  });

  it("uses the library's Standard JSON Schema (draft 2020-12), and an explicit schema over both", () => {
    const foreign = foreignSchema({ jsonSchema: { type: 'object', $schema: 'dialect' } });
    expect(standardSchemaJsonSchema(foreign, jsonOptions)).toEqual({
      type: 'object',
      target: { target: 'draft-2020-12' },
    });
    const explicit = { type: 'object', properties: {} };
    expect(standardSchemaJsonSchema(foreign, { ...jsonOptions, jsonSchema: explicit })).toBe(explicit);
    expect(standardSchemaJsonSchema(z.object({}), { ...jsonOptions, jsonSchema: explicit })).toBe(explicit);
  });

  it('is UNSUPPORTED_SCHEMA naming the library and the option to pass when there is no way to one', () => {
    const error = thrown(() => standardSchemaJsonSchema(foreignSchema(), jsonOptions));
    expect(error.code).toBe('UNSUPPORTED_SCHEMA');
    expect(error.message).toBe(
      'Tool "t": the model needs its JSON Schema, and this acme schema does not implement Standard JSON Schema (`~standard.jsonSchema`); pass `inputJsonSchema` alongside it.',
    );
    expect(error.details).toMatchObject({ vendor: 'acme' });
  });
});

describe('validateStandardSchema', () => {
  it("gives a valid value's output, sync or async", async () => {
    expect(await validateStandardSchema(foreignSchema(), 1)).toEqual({ success: true, value: { ok: true } });
    expect(await validateStandardSchema(foreignSchema({ async: true }), 1)).toEqual({
      success: true,
      value: { ok: true },
    });
    expect(await validateStandardSchema(z.object({ n: z.coerce.number() }), { n: '2' })).toEqual({
      success: true,
      value: { n: 2 },
    });
  });

  it('keeps every issue with its path as plain keys, whatever form the library gives segments in', async () => {
    const segment = fc.oneof(
      fc.string(),
      fc.nat(),
      fc.string().map((key) => ({ key })),
      fc.nat().map((key) => ({ key })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(segment), { minLength: 1 }), fc.boolean(), async (paths, async) => {
        const result = await validateStandardSchema(foreignSchema({ paths, async }), {});
        expect(result).toEqual({
          success: false,
          issues: paths.map((path) => ({
            message: 'bad',
            path: path.map((part) => (typeof part === 'object' ? part.key : part)),
          })),
        });
      }),
    );
  });
});
