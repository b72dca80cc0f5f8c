import { isRecord } from '../is-record.js';

// JSON Schema keywords the `parameters` Schema (an OpenAPI 3.0 subset) rejects as unknown fields.
const UNSUPPORTED_SCHEMA_KEYS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  'additionalProperties',
  'const',
  'examples',
]);

const partsOf = (content: unknown): Record<string, unknown>[] =>
  isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];

const count = (parts: Record<string, unknown>[], key: string) => parts.filter((part) => key in part).length;

function schemaProblem(schema: unknown, path: string): string | undefined {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const problem = schemaProblem(item, `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isRecord(schema)) return undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(key)) {
      return `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`;
    }
    if (key === 'type' && typeof value !== 'string') {
      return `Invalid JSON payload received. Proto field is not repeating, cannot start list at '${path}.type'.`;
    }
    // `properties` maps names to schemas: the names themselves are not keywords.
    const children = key === 'properties' && isRecord(value) ? Object.values(value) : [value];
    for (const child of children) {
      const problem = schemaProblem(child, `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * The request rules generativelanguage.googleapis.com enforces that adapters get wrong in
 * practice: roles `user`/`model` (and the legacy `function`), no empty `parts`, as many `functionResponse` parts as the
 * preceding turn had `functionCall`s, and tool `parameters` limited to its OpenAPI Schema subset.
 * Returns the API's error message, or `undefined` when the body passes.
 */
export function geminiRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.contents) || body.contents.length === 0) {
    return '* GenerateContentRequest.contents: contents is not specified';
  }
  for (const [index, content] of body.contents.entries()) {
    const role = isRecord(content) ? content.role : undefined;
    // `function` is the legacy role older SDKs give function responses; the API still takes it.
    if (role !== undefined && role !== 'user' && role !== 'model' && role !== 'function') {
      return 'Please use a valid role: user, model.';
    }
    if (partsOf(content).length === 0) {
      return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`;
    }
    const calls = index > 0 ? count(partsOf(body.contents[index - 1]), 'functionCall') : 0;
    const responses = count(partsOf(content), 'functionResponse');
    if ((calls > 0 || responses > 0) && role !== 'model' && responses !== calls) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  for (const [toolIndex, tool] of tools.entries()) {
    const declarations = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    for (const [index, declaration] of declarations.entries()) {
      const parameters = isRecord(declaration) ? declaration.parameters : undefined;
      const problem = schemaProblem(
        parameters,
        `tools[${toolIndex}].function_declarations[${index}].parameters`,
      );
      if (problem) return problem;
    }
  }
  return undefined;
}
