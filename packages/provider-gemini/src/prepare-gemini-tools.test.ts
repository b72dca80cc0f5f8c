import type { ModelToolDefinition } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { prepareGeminiTools } from './prepare-gemini-tools.js';

const readFile: ModelToolDefinition = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Relative path' },
      limit: { type: ['integer', 'null'], default: 10 },
    },
    required: ['path'],
    additionalProperties: false,
  },
};
const listDir: ModelToolDefinition = {
  name: 'ls',
  description: 'List the directory',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};

describe('prepareGeminiTools', () => {
  it('declares the tools with schemas cleaned to what Gemini accepts', () => {
    const before = structuredClone(readFile);
    expect(prepareGeminiTools([readFile, listDir], undefined)).toEqual({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'read_file',
              description: 'Read a file',
              parameters: {
                type: 'object',
                properties: {
                  path: { type: 'string', description: 'Relative path' },
                  limit: { type: 'integer', nullable: true },
                },
                required: ['path'],
              },
            },
            // Gemini refuses an object schema without properties.
            { name: 'ls', description: 'List the directory' },
          ],
        },
      ],
    });
    expect(readFile).toEqual(before);
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [{ toolName: 'ls' }, { mode: 'ANY', allowedFunctionNames: ['ls'] }],
  ] as const)('maps toolChoice %j to functionCallingConfig %j', (toolChoice, functionCallingConfig) => {
    expect(prepareGeminiTools([readFile, listDir], toolChoice).toolConfig).toEqual({ functionCallingConfig });
  });

  it('sends neither tools nor a tool config without tools', () => {
    expect(prepareGeminiTools(undefined, 'required')).toEqual({});
    expect(prepareGeminiTools([], { toolName: 'ls' })).toEqual({});
  });

  it('rejects a tool choice naming an unknown tool', () => {
    expect(() => prepareGeminiTools([listDir], { toolName: 'rm' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', details: { toolName: 'rm' } }),
    );
  });
});
