import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { toolInputJsonSchema } from './tool-input-json-schema.js';

const base = { description: 'Does it', category: 'test', execute: () => 'done' };

describe('defineTool', () => {
  it('keeps the definition and gives its input JSON Schema (input side of transforms)', () => {
    const tool = defineTool({
      ...base,
      name: 'count_lines',
      input: z.object({
        path: z.string().describe('File path'),
        limit: z.string().transform(Number).optional(),
      }),
    });
    expect(tool.name).toBe('count_lines');
    expect(toolInputJsonSchema(tool)).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'File path' }, limit: { type: 'string' } },
      required: ['path'],
    });
    expect(toolInputJsonSchema(tool)).toBe(toolInputJsonSchema(tool));
  });

  it('refuses what a provider would refuse, where the tool is written', () => {
    const input = z.object({});
    const code = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    expect(() => defineTool({ ...base, name: 'read file', input })).toThrow(code);
    expect(() => defineTool({ ...base, name: 'x'.repeat(65), input })).toThrow(code);
    expect(() => defineTool({ ...base, name: '1st', input })).toThrow(code);
    expect(() => defineTool({ ...base, name: 'ok', description: ' ', input })).toThrow(code);
    expect(() => defineTool({ ...base, name: 'ok', category: '', input })).toThrow(code);
    expect(() => defineTool({ ...base, name: 'ok', input, timeoutMs: 0 })).toThrow(code);
    expect(() => defineTool({ ...base, name: 'ok', input: z.string() })).toThrow(/must describe an object/);
  });

  // Ported definitions (AI SDK `inputSchema`, OpenAI `parameters`, …) must not fail later as a
  // missing input, or run with their schema silently ignored.
  it.each([
    ['inputSchema', 'input'],
    ['parameters', 'input'],
    ['schema', 'input'],
    ['jsonSchema', 'inputJsonSchema'],
    ['handler', 'execute'],
    ['run', 'execute'],
  ])('names an unknown field `%s` and the right one, `%s`', (field, meant) => {
    const definition = { ...base, name: 'ok', input: z.object({}), [field]: z.object({}) };
    expect(() => defineTool(definition)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: `Tool "ok": unknown field \`${field}\`: Cairn calls it \`${meant}\``,
      }),
    );
  });

  it('names the field when `input` is missing because another name was used', () => {
    const { execute, ...rest } = base;
    const definition = { ...rest, execute, name: 'ok', parameters: z.object({}) };
    expect(() => defineTool(definition as unknown as Parameters<typeof defineTool>[0])).toThrow(
      'Tool "ok": unknown field `parameters`: Cairn calls it `input`',
    );
  });

  it('lists the fields a tool has for an unknown field with no known meaning', () => {
    const definition = { ...base, name: 'ok', input: z.object({}), retries: 3 };
    expect(() => defineTool(definition)).toThrow(
      'Tool "ok": unknown field `retries` (a tool has name, description, category, input, inputJsonSchema, execute, toModelOutput, needsApproval, idempotent, timeoutMs)',
    );
    expect(() => defineTool({ ...base, name: 'ok' } as unknown as Parameters<typeof defineTool>[0])).toThrow(
      'Tool "ok": the input schema (`input`) is missing',
    );
  });
});
