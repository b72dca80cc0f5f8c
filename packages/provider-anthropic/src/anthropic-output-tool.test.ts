import { describe, expect, it } from 'vitest';
import { addOutputTool, outputToolName, parseStructuredOutputMode } from './anthropic-output-tool.js';

const output = { type: 'json' as const, schema: { type: 'object', properties: { a: { type: 'number' } } } };
const lookup = { name: 'lookup', input_schema: { type: 'object' as const } };

describe('addOutputTool', () => {
  it('forces the output tool when it is the only one or tools are off, else any tool', () => {
    expect(addOutputTool(output, {}, false)).toEqual({
      tools: [
        {
          name: 'output',
          description: 'Give your final answer as this tool’s input.',
          input_schema: output.schema,
        },
      ],
      tool_choice: { type: 'tool', name: 'output' },
    });
    expect(
      addOutputTool(output, { tools: [lookup], tool_choice: { type: 'none' } }, false).tool_choice,
    ).toEqual({
      type: 'tool',
      name: 'output',
    });
    expect(addOutputTool(output, { tools: [lookup] }, false).tool_choice).toEqual({ type: 'any' });
    const named = addOutputTool(
      output,
      { tools: [lookup], tool_choice: { type: 'tool', name: 'lookup' } },
      false,
    );
    expect(named.tool_choice).toEqual({ type: 'tool', name: 'lookup' });
    expect(named.tools.map((tool) => tool.name)).toEqual(['lookup', 'output']);
    expect(
      addOutputTool({ ...output, name: 'invoice', description: 'The invoice' }, {}, false).tools[0],
    ).toMatchObject({
      name: 'invoice',
      description: 'The invoice',
    });
  });

  it('refuses thinking, a name taken by a tool or not a tool name, and a schema that is not an object', () => {
    expect(() => addOutputTool(output, {}, true)).toThrow(/thinking/);
    expect(() => addOutputTool({ ...output, name: 'lookup' }, { tools: [lookup] }, false)).toThrow(
      /also the name/,
    );
    expect(() => outputToolName({ ...output, name: 'my output' })).toThrow(/not a tool name/);
    expect(() => addOutputTool({ type: 'json', schema: { type: 'array' } }, {}, false)).toThrow(
      /object schema/,
    );
    expect(parseStructuredOutputMode('tool', 'x')).toBe('tool');
    expect(() => parseStructuredOutputMode('forced', 'structuredOutput')).toThrow(/"native" or "tool"/);
  });
});
