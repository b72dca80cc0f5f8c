import { type JsonSchema, standardSchemaJsonSchema, type Tool } from '@cairn/core';

// A tool's schema is made once: the host lists the tools before every model call.
const schemas = new WeakMap<Tool, JsonSchema>();

/**
 * The JSON Schema of what the model must send a tool: its `inputJsonSchema`, or made from its input
 * validator (the input side of a transforming schema). `UNSUPPORTED_SCHEMA` when neither gives one.
 */
export function toolInputJsonSchema(tool: Tool): JsonSchema {
  let schema = schemas.get(tool);
  if (schema === undefined) {
    schema = standardSchemaJsonSchema(tool.input, {
      what: `Tool ${JSON.stringify(tool.name)}`,
      jsonSchema: tool.inputJsonSchema,
      jsonSchemaOption: 'inputJsonSchema',
    });
    schemas.set(tool, schema);
  }
  return schema;
}
