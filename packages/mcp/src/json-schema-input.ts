import type { JsonSchema, StandardSchemaV1 } from '@cairn/core';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

// One Ajv for every MCP tool: compiling a schema is the cost, validating is cheap.
const validators = new AjvJsonSchemaValidator();

/**
 * A Standard Schema over an MCP tool's JSON Schema (validated by the MCP SDK's own Ajv), so the
 * tool host refuses invalid arguments before the call reaches the server, as it does for any tool.
 */
export function jsonSchemaInput(schema: JsonSchema): StandardSchemaV1<unknown, Record<string, unknown>> {
  const validate = validators.getValidator<Record<string, unknown>>(schema as never);
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp',
      validate(value) {
        const result = validate(value);
        return result.valid
          ? { value: result.data }
          : { issues: result.errorMessage.split(', ').map((message) => ({ message })) };
      },
    },
  };
}
