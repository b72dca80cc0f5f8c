import { CairnError, type ModelToolDefinition } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareAnthropicTools } from './prepare-anthropic-tools.js';

const weather: ModelToolDefinition = {
  name: 'get_weather',
  description: 'Current weather of a city',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

function expectInvalid(run: () => unknown, message: RegExp) {
  try {
    run();
  } catch (error) {
    expect(CairnError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error('expected INVALID_ARGUMENT');
}

describe('prepareAnthropicTools', () => {
  it('maps a tool to name, description and input_schema, keeping the schema whole', () => {
    expect(prepareAnthropicTools([weather], undefined)).toEqual({
      tools: [
        { name: 'get_weather', description: 'Current weather of a city', input_schema: weather.inputSchema },
      ],
    });
  });

  it('adds type object to a schema without a type and leaves out an empty description', () => {
    const tool = { name: 'ping', description: '', inputSchema: { properties: {} } };
    expect(prepareAnthropicTools([tool], 'auto').tools).toEqual([
      { name: 'ping', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [{ toolName: 'get_weather' }, { type: 'tool', name: 'get_weather' }],
  ] as const)('maps toolChoice %j to %j', (choice, expected) => {
    expect(prepareAnthropicTools([weather], choice).tool_choice).toEqual(expected);
  });

  it('sends neither tools nor tool_choice without tools', () => {
    expect(prepareAnthropicTools(undefined, 'required')).toEqual({});
    expect(prepareAnthropicTools([], { toolName: 'x' })).toEqual({});
  });

  it('refuses a tool choice naming an unknown tool, a duplicate name and a non-object schema', () => {
    expectInvalid(() => prepareAnthropicTools([weather], { toolName: 'nope' }), /not among the tools/);
    expectInvalid(() => prepareAnthropicTools([weather, weather], undefined), /defined twice/);
    expectInvalid(
      () =>
        prepareAnthropicTools([{ name: 'a', description: '', inputSchema: { type: 'string' } }], undefined),
      /must describe an object/,
    );
  });

  it('keeps every tool, in order, without mutating the definitions', () => {
    const toolArb = fc.record({
      name: fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/),
      description: fc.string(),
      inputSchema: fc.record(
        {
          properties: fc.dictionary(fc.string(), fc.constant({ type: 'string' })),
          type: fc.constant('object'),
        },
        { requiredKeys: ['properties'] },
      ),
    });
    fc.assert(
      fc.property(fc.uniqueArray(toolArb, { selector: (tool) => tool.name, minLength: 1 }), (tools) => {
        const before = structuredClone(tools);
        const prepared = prepareAnthropicTools(tools, 'auto');
        expect(tools).toEqual(before);
        expect(prepared.tools?.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
        for (const [index, tool] of (prepared.tools ?? []).entries()) {
          expect(tool.input_schema).toEqual({ ...tools[index]?.inputSchema, type: 'object' });
        }
      }),
      { numRuns: 100 },
    );
  });
});
