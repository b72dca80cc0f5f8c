import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { z } from 'zod';
import { CairnError } from './errors/cairn-error.js';
import type { JsonSchema } from './model/model-adapter.js';

export type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** What Cairn validates with: any Standard Schema (zod ≥ 3.24, valibot ≥ 1, arktype ≥ 2, …). */
export const SUPPORTED_SCHEMAS =
  'a Standard Schema validator (https://standardschema.dev): zod 4, valibot 1, arktype 2, or zod ≥ 3.24 with an explicit JSON Schema';

/** One reason a value did not validate: where (`['items', 0, 'name']`, empty for the value) and what. */
export interface StandardSchemaIssue {
  path: PropertyKey[];
  message: string;
}

export type StandardSchemaResult<Output> =
  | { success: true; value: Output }
  | { success: false; issues: StandardSchemaIssue[] };

export interface StandardSchemaJsonSchemaOptions {
  /** Names the schema in errors (`Tool "read_file" input`). */
  what: string;
  /** Used as is when given: the way to describe a schema whose library cannot. */
  jsonSchema?: JsonSchema | undefined;
  /** The option through which the user can pass `jsonSchema`, named in the error when none is found. */
  jsonSchemaOption: string;
  /** Which side of a transforming schema to describe; `input` (what a model must send) by default. */
  io?: 'input' | 'output';
}

type Described = {
  '~standard'?: Partial<StandardSchemaV1.Props & StandardJSONSchemaV1.Props>;
  _zod?: unknown;
  _def?: unknown;
};

// The library a schema came from, for errors: its Standard Schema vendor, or a guess from zod 3's shape.
function vendorOf(schema: unknown): string | undefined {
  if (typeof schema !== 'object' && typeof schema !== 'function') return undefined;
  if (schema === null) return undefined;
  const { '~standard': standard, _def } = schema as Described;
  if (typeof standard?.vendor === 'string') return standard.vendor;
  return _def === undefined ? undefined : 'zod';
}

function unsupported(what: string, message: string, vendor: string | undefined): CairnError {
  return new CairnError('UNSUPPORTED_SCHEMA', `${what}: ${message}`, {
    details: { vendor: vendor ?? null, supported: SUPPORTED_SCHEMAS },
  });
}

/** `schema` when it is a Standard Schema validator; otherwise `UNSUPPORTED_SCHEMA` saying what is. */
export function assertStandardSchema(schema: unknown, what: string): StandardSchemaV1 {
  const vendor = vendorOf(schema);
  const standard = vendor === undefined ? undefined : (schema as Described)['~standard'];
  if (standard?.version === 1 && typeof standard.validate === 'function') return schema as StandardSchemaV1;
  // zod before 3.24 has no `~standard`: the one old library users are likely to hand us.
  const found =
    vendor === 'zod'
      ? 'a zod schema older than zod 3.24 (no Standard Schema interface)'
      : vendor === undefined
        ? `${schema === null ? 'null' : typeof schema}, not a schema`
        : `a ${vendor} schema without a usable Standard Schema v1 interface`;
  throw unsupported(what, `got ${found}; expected ${SUPPORTED_SCHEMAS}.`, vendor);
}

/**
 * The JSON Schema of `schema` (draft 2020-12, without `$schema`), for a model: the explicit one when
 * given, zod 4's own conversion, or the library's Standard JSON Schema (`~standard.jsonSchema`).
 * A schema with none of these is `UNSUPPORTED_SCHEMA`, naming the option that would fix it.
 */
export function standardSchemaJsonSchema(
  schema: StandardSchemaV1,
  options: StandardSchemaJsonSchemaOptions,
): JsonSchema {
  const { what, jsonSchema, jsonSchemaOption, io = 'input' } = options;
  if (jsonSchema !== undefined) return jsonSchema;
  const described = schema as Described;
  const converted =
    described._zod !== undefined
      ? // zod 4 directly, not through `~standard.jsonSchema` (zod ≥ 4.2 only): a field JSON Schema
        // cannot express (a Date, a custom check) is then left open, not an error.
        z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' })
      : described['~standard']?.jsonSchema?.[io]({ target: 'draft-2020-12' });
  if (converted === undefined) {
    const vendor = vendorOf(schema);
    const library =
      vendor === 'zod' && described._def !== undefined
        ? 'zod 3 schemas cannot give one (zod 4 schemas can)'
        : `this ${vendor} schema does not implement Standard JSON Schema (\`~standard.jsonSchema\`)`;
    throw unsupported(
      what,
      `the model needs its JSON Schema, and ${library}; pass \`${jsonSchemaOption}\` alongside it.`,
      vendor,
    );
  }
  const { $schema: _dialect, ...rest } = converted as JsonSchema;
  return rest;
}

/** Validates `value` with any Standard Schema; issues keep their paths. Never throws for bad input. */
export async function validateStandardSchema<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  value: unknown,
): Promise<StandardSchemaResult<Output>> {
  const result = await schema['~standard'].validate(value);
  if (result.issues === undefined) return { success: true, value: result.value };
  return {
    success: false,
    issues: [...result.issues].map((issue) => ({
      path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
      message: issue.message,
    })),
  };
}
