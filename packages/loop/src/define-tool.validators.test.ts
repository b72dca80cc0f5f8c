import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

// Each library's tools are checked the same way: the JSON Schema the providers get, a bad call
// refused with the field's path, and a good one run with the validated input.
const base = { description: 'Find a city', category: 'test' };
const FIND_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, stops: { type: 'array', items: { type: 'number' } } },
  required: ['city', 'stops'],
};
const call = (args: unknown) => ({
  id: 'call_1',
  type: 'function' as const,
  function: { name: 'find', arguments: JSON.stringify(args) },
});

async function expectWorks(tool: Parameters<typeof createToolHost>[0][number], jsonSchema: unknown) {
  const host = createToolHost([tool]);
  const [listed] = host.getVisibleTools();
  expect(listed?.inputSchema).toEqual(jsonSchema);
  const signal = new AbortController().signal;
  const bad = await host.execute(call({ city: 'Oslo', stops: [1, 'two'] }), { signal });
  expect(bad).toMatchObject({ isError: true, errorCode: 'TOOL_INVALID_INPUT' });
  expect(bad.content).toMatch(/^Invalid arguments for find:\n- stops\.1: .+\nCall it again/);
  const good = await host.execute(call({ city: 'Oslo', stops: [1, 2] }), { signal });
  expect(good).toMatchObject({ isError: false, content: 'Oslo via 2 stops' });
}

const execute = ({ city, stops }: { city: string; stops: number[] }) => `${city} via ${stops.length} stops`;

describe('defineTool with each Standard Schema library', () => {
  it('zod 4', async () => {
    const input = z.object({ city: z.string(), stops: z.array(z.number()) });
    await expectWorks(defineTool({ ...base, name: 'find', input, execute }), FIND_SCHEMA);
  });

  it('arktype 2 (its own Standard JSON Schema)', async () => {
    const input = type({ city: 'string', stops: 'number[]' });
    await expectWorks(defineTool({ ...base, name: 'find', input, execute }), FIND_SCHEMA);
  });

  it('valibot 1: with @valibot/to-json-schema, or an explicit JSON Schema; a clear error without', async () => {
    const input = v.object({ city: v.string(), stops: v.array(v.number()) });
    const described = toStandardJsonSchema(input);
    await expectWorks(defineTool({ ...base, name: 'find', input: described, execute }), FIND_SCHEMA);
    await expectWorks(
      defineTool({ ...base, name: 'find', input, inputJsonSchema: FIND_SCHEMA, execute }),
      FIND_SCHEMA,
    );
    expect(() => defineTool({ ...base, name: 'find', input, execute })).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_SCHEMA',
        message:
          'Tool "find": the model needs its JSON Schema, and this valibot schema does not implement Standard JSON Schema (`~standard.jsonSchema`); pass `inputJsonSchema` alongside it.',
      }),
    );
  });

  it('zod 3: validates with an explicit JSON Schema; without one, a clear error instead of a crash', async () => {
    const input = z3.object({ city: z3.string(), stops: z3.array(z3.number()) });
    await expectWorks(
      defineTool({ ...base, name: 'find', input, inputJsonSchema: FIND_SCHEMA, execute }),
      FIND_SCHEMA,
    );
    expect(() => defineTool({ ...base, name: 'find', input, execute })).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_SCHEMA',
        message:
          'Tool "find": the model needs its JSON Schema, and zod 3 schemas cannot give one (zod 4 schemas can); pass `inputJsonSchema` alongside it.',
      }),
    );
  });

  it("types execute's input from each library's schema (checked by the type-checker)", () => {
    type Find = { city: string; stops: number[] };
    const inputs = {
      zod4: z.object({ city: z.string(), stops: z.array(z.number()) }),
      zod3: z3.object({ city: z3.string(), stops: z3.array(z3.number()) }),
      valibot: toStandardJsonSchema(v.object({ city: v.string(), stops: v.array(v.number()) })),
      arktype: type({ city: 'string', stops: 'number[]' }),
    };
    defineTool({
      ...base,
      name: 'a',
      input: inputs.zod4,
      execute: (input) => expectTypeOf(input).toEqualTypeOf<Find>(),
    });
    defineTool({
      ...base,
      name: 'b',
      input: inputs.zod3,
      inputJsonSchema: FIND_SCHEMA,
      execute: (input) => expectTypeOf(input).toEqualTypeOf<Find>(),
    });
    defineTool({
      ...base,
      name: 'c',
      input: inputs.valibot,
      execute: (input) => expectTypeOf(input).toEqualTypeOf<Find>(),
    });
    defineTool({
      ...base,
      name: 'd',
      input: inputs.arktype,
      execute: (input) => expectTypeOf(input).toEqualTypeOf<Find>(),
    });
  });

  it('refuses a value that is not a schema, and a schema of anything but an object', () => {
    const notSchema = { type: 'object' } as unknown as z.ZodObject;
    expect(() => defineTool({ ...base, name: 'find', input: notSchema, execute })).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_SCHEMA',
        message: expect.stringMatching(/^Tool "find" input: got object, not a schema/),
      }),
    );
    for (const input of [z.string(), type('string'), toStandardJsonSchema(v.string())]) {
      expect(() => defineTool({ ...base, name: 'find', input, execute: () => 'x' })).toThrow(
        /the input schema must describe an object/,
      );
    }
  });
});
