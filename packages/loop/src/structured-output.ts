import {
  assertStandardSchema,
  CairnError,
  definedFields,
  type JsonSchema,
  type ModelAdapter,
  type ModelMessage,
  type ModelOutputFormat,
  type StandardSchemaV1,
  standardSchemaJsonSchema,
  validateStandardSchema,
} from '@cairn/core';

/** Invalid answers the model is asked again after, by default: once, with what was wrong. */
export const DEFAULT_OUTPUT_RETRIES = 1;

/** Structured output with what the model is told about it besides the schema. */
export interface StructuredOutputOptions<OUTPUT> {
  /** Any Standard Schema validator (zod 4, valibot, arktype, …) of the answer. */
  schema: StandardSchemaV1<unknown, OUTPUT>;
  /** The JSON Schema the model sees, when the validator's library cannot make one (zod 3). */
  jsonSchema?: JsonSchema;
  /** A name for the schema (OpenAI's `json_schema.name`); `output` when absent. */
  name?: string;
  description?: string;
}

/** The `output` option: a Standard Schema validator, or one with a name and description. */
export type StructuredOutput<OUTPUT> = StandardSchemaV1<unknown, OUTPUT> | StructuredOutputOptions<OUTPUT>;

/** One reason an answer was refused: where in the JSON (empty for the whole) and what. */
export interface OutputIssue {
  path: (string | number)[];
  message: string;
}

/** Structured output as one loop asks for it, fixed for the whole loop. */
export interface LoopOutput {
  schema: StandardSchemaV1;
  format: ModelOutputFormat;
  /** The adapter takes `ModelRequest.output`; otherwise the schema goes into the system prompt. */
  native: boolean;
  retries: number;
}

export type OutputCheck = { success: true; value: unknown } | { success: false; issues: OutputIssue[] };

const isSchema = (output: StructuredOutput<unknown>): output is StandardSchemaV1 =>
  (typeof output === 'object' || typeof output === 'function') && output !== null && '~standard' in output;

/** The `output` option checked: its validator, its JSON Schema, and how the model is asked. */
export function resolveLoopOutput(
  output: StructuredOutput<unknown>,
  model: ModelAdapter,
  retries: number,
): LoopOutput {
  const options: StructuredOutputOptions<unknown> = isSchema(output) ? { schema: output } : output;
  const schema = assertStandardSchema(options.schema, 'output');
  // The model writes what the validator takes: the input side of a transforming schema.
  const jsonSchema = standardSchemaJsonSchema(schema, {
    what: 'output',
    jsonSchema: options.jsonSchema,
    jsonSchemaOption: 'output.jsonSchema',
  });
  return {
    schema,
    format: {
      type: 'json',
      schema: jsonSchema,
      ...definedFields({ name: options.name, description: options.description }),
    },
    native: model.capabilities.structuredOutput === true,
    retries,
  };
}

function instruction({ schema, description }: ModelOutputFormat): string {
  return [
    'When you give your answer (after any tool calls you need), answer with one JSON value that matches',
    'this JSON Schema and nothing else: no text around it, no Markdown code fence.',
    ...(description === undefined ? [] : [`The answer: ${description}`]),
    JSON.stringify(schema),
  ].join('\n');
}

/**
 * The request's messages for a model without native structured output: the schema and the rule to
 * answer with JSON only, at the end of the system prompt (or as one when there is none).
 */
export function withOutputInstruction(messages: ModelMessage[], format: ModelOutputFormat): ModelMessage[] {
  const text = instruction(format);
  const [first, ...rest] = messages;
  if (first?.role === 'system' && typeof first.content === 'string') {
    return [{ ...first, content: `${first.content}\n\n${text}` }, ...rest];
  }
  return [{ role: 'system', content: text }, ...messages];
}

// Models asked by instruction sometimes wrap the JSON in a Markdown code fence anyway.
const OPENING_FENCE = /^\s*```[\w-]*[ \t]*\n/;

/** The JSON of an answer: its text without a Markdown code fence around it. */
export function outputJsonText(text: string): string {
  const opening = OPENING_FENCE.exec(text);
  if (opening === null) return text;
  const body = text.slice(opening[0].length);
  const closing = body.lastIndexOf('```');
  return closing === -1 ? body : body.slice(0, closing);
}

/** Parses the answer's text as JSON and validates it; never throws for a bad answer. */
export async function checkOutput(output: LoopOutput, text: string): Promise<OutputCheck> {
  let value: unknown;
  try {
    value = JSON.parse(outputJsonText(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { success: false, issues: [{ path: [], message: `not valid JSON (${reason})` }] };
  }
  const result = await validateStandardSchema(output.schema, value);
  if (result.success) return result;
  return {
    success: false,
    issues: result.issues.map((issue) => ({
      path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
      message: issue.message,
    })),
  };
}

const describeIssue = ({ path, message }: OutputIssue) =>
  path.length === 0 ? message : `${path.join('.')}: ${message}`;

/** What the model is told after an answer that did not validate, to answer again. */
export function outputFeedback(issues: readonly OutputIssue[]): string {
  return [
    'Your answer could not be used: it does not match the required JSON Schema.',
    ...issues.map((issue) => `- ${describeIssue(issue)}`),
    'Answer again with only one JSON value that matches the schema.',
  ].join('\n');
}

/** `OUTPUT_INVALID`: the last answer and why it was refused, after every retry. */
export function outputInvalidError(issues: OutputIssue[], text: string, attempts: number): CairnError {
  const first = issues[0] === undefined ? 'it did not validate' : describeIssue(issues[0]);
  return new CairnError(
    'OUTPUT_INVALID',
    `The model's answer does not match the output schema (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}): ${first}`,
    { details: { issues, text, attempts } },
  );
}
