import type { JsonSchema, Tool } from '@cairn/core';
import { z } from 'zod';

// A tool's schema is made once: the host lists the tools before every model call.
const schemas = new WeakMap<Tool, JsonSchema>();

/** The JSON Schema of what the model must send a tool (the input side of its zod schema). */
export function toolInputJsonSchema(tool: Tool): JsonSchema {
  let schema = schemas.get(tool);
  if (schema === undefined) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(tool.input, {
      io: 'input',
      // A field JSON Schema cannot express (a Date, a custom check) is left open, not an error.
      unrepresentable: 'any',
    }) as JsonSchema;
    schema = rest;
    schemas.set(tool, schema);
  }
  return schema;
}
