import {
  assertStandardSchema,
  CairnError,
  type JsonSchema,
  type MessageContent,
  type StandardSchemaV1,
  type Tool,
  type ToolContext,
} from '@cairn/core';
import { toolInputJsonSchema } from './tool-input-json-schema.js';

// What OpenAI, Anthropic and Gemini all accept as a function name.
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * A tool's definition: `input` is any Standard Schema validator of an object (zod 4, valibot,
 * arktype, …); `execute` gets the validated input.
 */
export interface ToolDefinition<Schema extends StandardSchemaV1, Output> {
  /** What the model calls it by: letters, digits, `_` and `-`, at most 64, not starting with a digit or `-`. */
  name: string;
  description: string;
  /** Group for tool policies (`read`, `write`, `shell`, …). */
  category: string;
  input: Schema;
  /**
   * The JSON Schema the model sees, when the validator's library cannot make one (zod 3, valibot
   * without `@valibot/to-json-schema`); otherwise made from `input`.
   */
  inputJsonSchema?: JsonSchema;
  execute(input: StandardSchemaV1.InferOutput<Schema>, context: ToolContext): Output | Promise<Output>;
  /**
   * What the model reads of a non-string result — text, or content parts (`createImagePart` of
   * `@cairn/core`, text parts) for an image it should see; its JSON text when absent.
   */
  toModelOutput?(output: Output): MessageContent;
  /** Ask before running: always, or when this returns true for the input. */
  needsApproval?:
    | boolean
    | ((input: StandardSchemaV1.InferOutput<Schema>, context: ToolContext) => boolean | Promise<boolean>);
  /**
   * Running it twice with the same input does no harm: after a crash mid-call the ledger runs it
   * again; otherwise the call gets an "interrupted, not retried" result. Default false.
   */
  idempotent?: boolean;
  /** Abort the call after this many milliseconds (`TOOL_TIMEOUT`); the host's default when absent. */
  timeoutMs?: number;
}

const FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'category',
  'input',
  'inputJsonSchema',
  'execute',
  'toModelOutput',
  'needsApproval',
  'idempotent',
  'timeoutMs',
] satisfies (keyof ToolDefinition<StandardSchemaV1, unknown>)[]);

// Other libraries' names for our fields (AI SDK, OpenAI Agents SDK, LangChain.js, MCP), so a port
// from one of them is told which field it meant.
const OTHER_NAMES: Readonly<Record<string, string>> = {
  inputSchema: 'input',
  parameters: 'input',
  schema: 'input',
  jsonSchema: 'inputJsonSchema',
  handler: 'execute',
  invoke: 'execute',
  func: 'execute',
  run: 'execute',
};

function invalid(name: string, problem: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', `Tool ${JSON.stringify(name)}: ${problem}`);
}

/**
 * A tool for a `ToolHost`. Checks the definition at once (name, fields, an object input schema that
 * gives a JSON Schema, a positive timeout), so a mistake fails where the tool is written, not on the
 * model's first call.
 */
export function defineTool<Schema extends StandardSchemaV1, Output>(
  definition: ToolDefinition<Schema, Output>,
): Tool<StandardSchemaV1.InferOutput<Schema>, Output> {
  const { name, description, category, input, timeoutMs } = definition;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw invalid(String(name), `the name must match ${TOOL_NAME} (what every provider accepts)`);
  }
  for (const field of Object.keys(definition)) {
    if (FIELDS.has(field)) continue;
    const meant = OTHER_NAMES[field];
    throw invalid(
      name,
      meant === undefined
        ? `unknown field \`${field}\` (a tool has ${[...FIELDS].join(', ')})`
        : `unknown field \`${field}\`: Cairn calls it \`${meant}\``,
    );
  }
  if (typeof description !== 'string' || description.trim() === '')
    throw invalid(name, 'the description is empty');
  if (typeof category !== 'string' || category === '') throw invalid(name, 'the category is empty');
  if (input === undefined) throw invalid(name, 'the input schema (`input`) is missing');
  if (typeof definition.execute !== 'function') throw invalid(name, '`execute` is not a function');
  if (definition.idempotent !== undefined && typeof definition.idempotent !== 'boolean')
    throw invalid(name, `idempotent must be true or false, got ${String(definition.idempotent)}`);
  if (timeoutMs !== undefined && !(timeoutMs > 0))
    throw invalid(name, `timeoutMs must be positive, got ${timeoutMs}`);
  assertStandardSchema(input, `Tool ${JSON.stringify(name)} input`);
  const tool = { ...definition } as Tool<StandardSchemaV1.InferOutput<Schema>, Output>;
  // Providers take an object of named arguments, nothing else.
  if (toolInputJsonSchema(tool).type !== 'object')
    throw invalid(name, 'the input schema must describe an object (`z.object`, `v.object`, `type({ … })`)');
  return tool;
}
