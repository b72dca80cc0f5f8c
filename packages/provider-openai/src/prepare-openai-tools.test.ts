import { CairnError, type ModelToolChoice, type ModelToolDefinition } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareOpenAITools } from './prepare-openai-tools.js';

const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const read: ModelToolDefinition = { name: 'read', description: 'Read a file', inputSchema: schema };

describe('prepareOpenAITools', () => {
  it('sends each tool as a function with its schema as parameters', () => {
    expect(
      prepareOpenAITools(
        [read, { name: 'now', description: '', inputSchema: { type: 'object' } }],
        undefined,
      ),
    ).toEqual({
      tools: [
        { type: 'function', function: { name: 'read', description: 'Read a file', parameters: schema } },
        { type: 'function', function: { name: 'now', parameters: { type: 'object' } } },
      ],
    });
  });

  it('maps every tool choice', () => {
    const choices: [ModelToolChoice, unknown][] = [
      ['auto', 'auto'],
      ['none', 'none'],
      ['required', 'required'],
      [{ toolName: 'read' }, { type: 'function', function: { name: 'read' } }],
    ];
    for (const [choice, expected] of choices)
      expect(prepareOpenAITools([read], choice).tool_choice).toEqual(expected);
  });

  it('sends neither tools nor tool_choice without tools', () => {
    expect(prepareOpenAITools(undefined, 'required')).toEqual({});
    expect(prepareOpenAITools([], { toolName: 'read' })).toEqual({});
  });

  it('refuses a named choice that is not one of the tools with INVALID_ARGUMENT', () => {
    let thrown: unknown;
    try {
      prepareOpenAITools([read], { toolName: 'write' });
    } catch (error) {
      thrown = error;
    }
    expect(CairnError.is(thrown, 'INVALID_ARGUMENT')).toBe(true);
    expect((thrown as CairnError).details).toEqual({ path: 'toolChoice.toolName' });
  });
});

describe('prepareOpenAITools (properties)', () => {
  const tool = fc.record({
    name: fc.string({ minLength: 1, maxLength: 10 }),
    description: fc.string({ maxLength: 10 }),
    inputSchema: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
  });

  it('keeps every tool, in order, with its schema untouched', () => {
    fc.assert(
      fc.property(fc.array(tool, { minLength: 1, maxLength: 5 }), (tools) => {
        const before = structuredClone(tools);
        const prepared = prepareOpenAITools(tools, 'auto');
        expect(tools).toEqual(before);
        expect(prepared.tools?.map((entry) => entry.function.name)).toEqual(tools.map((entry) => entry.name));
        expect(prepared.tools?.map((entry) => entry.function.parameters)).toEqual(
          tools.map((entry) => entry.inputSchema),
        );
        expect(prepared.tools?.map((entry) => entry.function.description ?? '')).toEqual(
          tools.map((entry) => entry.description),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('accepts a named choice exactly when it names one of the tools', () => {
    fc.assert(
      fc.property(
        fc.array(tool, { minLength: 1, maxLength: 5 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        (tools, name) => {
          const known = tools.some((entry) => entry.name === name);
          if (known)
            expect(prepareOpenAITools(tools, { toolName: name }).tool_choice).toEqual({
              type: 'function',
              function: { name },
            });
          else
            expect(() => prepareOpenAITools(tools, { toolName: name })).toThrow(
              expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
            );
        },
      ),
      { numRuns: 100 },
    );
  });
});
