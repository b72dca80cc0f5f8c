import { CairnError, type Tool, type ToolContext } from '@cairn/core';
import type { z } from 'zod';
import { toolInputJsonSchema } from './tool-input-json-schema.js';

// What OpenAI, Anthropic and Gemini all accept as a function name.
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** A tool's definition: `input` is a zod object schema; `execute` gets the parsed input. */
export interface ToolDefinition<Schema extends z.ZodType, Output> {
  /** What the model calls it by: letters, digits, `_` and `-`, at most 64, not starting with a digit or `-`. */
  name: string;
  description: string;
  /** Group for tool policies (`read`, `write`, `shell`, …). */
  category: string;
  input: Schema;
  execute(input: z.output<Schema>, context: ToolContext): Output | Promise<Output>;
  /** What the model reads of a non-string result; its JSON text when absent. */
  toModelOutput?(output: Output): string;
  /** Ask before running: always, or when this returns true for the input. */
  needsApproval?: boolean | ((input: z.output<Schema>, context: ToolContext) => boolean | Promise<boolean>);
  /** Abort the call after this many milliseconds (`TOOL_TIMEOUT`); the host's default when absent. */
  timeoutMs?: number;
}

function invalid(name: string, problem: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', `Tool ${JSON.stringify(name)}: ${problem}`);
}

/**
 * A tool for a `ToolHost`. Checks the definition at once (name, an object input schema, a positive
 * timeout), so a mistake fails where the tool is written, not on the model's first call.
 */
export function defineTool<Schema extends z.ZodType, Output>(
  definition: ToolDefinition<Schema, Output>,
): Tool<z.output<Schema>, Output> {
  const { name, description, category, timeoutMs } = definition;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw invalid(String(name), `the name must match ${TOOL_NAME} (what every provider accepts)`);
  }
  if (typeof description !== 'string' || description.trim() === '')
    throw invalid(name, 'the description is empty');
  if (typeof category !== 'string' || category === '') throw invalid(name, 'the category is empty');
  if (timeoutMs !== undefined && !(timeoutMs > 0))
    throw invalid(name, `timeoutMs must be positive, got ${timeoutMs}`);
  const tool = { ...definition } as Tool<z.output<Schema>, Output>;
  // Providers take an object of named arguments, nothing else.
  if (toolInputJsonSchema(tool).type !== 'object') throw invalid(name, 'the input schema must be a z.object');
  return tool;
}
