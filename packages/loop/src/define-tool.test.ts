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
    expect(() => defineTool({ ...base, name: 'ok', input: z.string() })).toThrow(/must be a z.object/);
  });
});
