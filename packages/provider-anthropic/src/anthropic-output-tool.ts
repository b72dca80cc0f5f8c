import type { Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { CairnError, type ModelOutputFormat } from '@cairn/core';

/** How structured output is asked for: the API's `output_config.format`, or a forced tool. */
export type AnthropicStructuredOutputMode = 'native' | 'tool';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const DEFAULT_TOOL_NAME = 'output';

const invalid = (problem: string) =>
  new CairnError('INVALID_ARGUMENT', `anthropic: ${problem}`, { details: { provider: 'anthropic' } });

/** The checked mode from adapter options or `providerOptions`. */
export function parseStructuredOutputMode(
  value: unknown,
  where: string,
): AnthropicStructuredOutputMode | undefined {
  if (value === undefined || value === 'native' || value === 'tool') return value;
  throw invalid(`${where} must be "native" or "tool", got ${JSON.stringify(value)}`);
}

/** The name of the tool that carries the answer in `tool` mode: the output's name, or `output`. */
export function outputToolName(output: ModelOutputFormat): string {
  const name = output.name ?? DEFAULT_TOOL_NAME;
  if (!TOOL_NAME.test(name)) {
    throw invalid(
      `the output name ${JSON.stringify(name)} is not a tool name (letters, digits, _ and -, up to 64)`,
    );
  }
  return name;
}

/**
 * Structured output as a forced tool, for models without native structured outputs: a tool whose
 * input schema is the output schema, and a `tool_choice` that makes the model call it — that tool
 * when it is the only one (or tools are turned off), any tool otherwise, so the model may still
 * use the request's tools first. The adapter returns the tool's input as the answer's text. The
 * API refuses a forced tool with thinking, and the tool's schema must describe an object: both are
 * `INVALID_ARGUMENT` here.
 */
export function addOutputTool(
  output: ModelOutputFormat,
  prepared: { tools?: Tool[]; tool_choice?: ToolChoice },
  thinking: boolean,
): { tools: Tool[]; tool_choice: ToolChoice } {
  if (thinking) {
    throw invalid(
      'structured output as a forced tool cannot be combined with thinking; use structuredOutput "native"',
    );
  }
  const name = outputToolName(output);
  const tools = prepared.tools ?? [];
  if (tools.some((tool) => tool.name === name)) {
    throw invalid(`the output name ${name} is also the name of a tool; give the output another name`);
  }
  const { type = 'object' } = output.schema;
  if (type !== 'object') {
    throw invalid(
      `a forced output tool takes an object schema, got type ${JSON.stringify(type)}; use structuredOutput "native"`,
    );
  }
  const outputTool: Tool = {
    name,
    description: output.description ?? 'Give your final answer as this tool’s input.',
    input_schema: { ...output.schema, type: 'object' },
  };
  const choice = prepared.tool_choice;
  const onlyOutput = tools.length === 0 || choice?.type === 'none';
  const toolChoice: ToolChoice = onlyOutput
    ? { type: 'tool', name }
    : choice?.type === 'tool'
      ? choice
      : { type: 'any' };
  return { tools: [...tools, outputTool], tool_choice: toolChoice };
}
