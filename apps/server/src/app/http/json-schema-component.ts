import { z } from '@hono/zod-openapi';

/**
 * A zod schema of type `T` documented by a ready-made JSON Schema, as the OpenAPI component `name`.
 * Core's message and event schemas are recursive (JSON values), which the OpenAPI generator cannot
 * walk, but core publishes their JSON Schemas; their local `#/$defs/…` references are rewritten to
 * point inside the component, so they resolve in the OpenAPI document. Not validated at runtime:
 * these only describe what the server sends.
 */
export function jsonSchemaComponent<T>(name: string, jsonSchema: object) {
  const { $schema: _schema, $id: _id, ...rest } = jsonSchema as Record<string, unknown>;
  const rewritten = JSON.parse(
    JSON.stringify(rest).replaceAll('"#/$defs/', `"#/components/schemas/${name}/$defs/`),
  ) as Record<string, unknown>;
  // The generator insists on a `type`; both schemas describe objects (AgentOutput is a `oneOf` of them).
  return z.custom<T>().openapi(name, { type: 'object', ...rewritten });
}
