// Shared by the tool processor tests (no test of its own).
import type { JsonValue } from '@cairn/core';
import { recordedFixtureCwd } from '@cairn/testing/agent-clis';
import type { ToolCallView, ToolDescription, ToolProcessor } from './tool-call-view.js';
import { ToolProcessorRegistry } from './tool-processor-registry.js';

/** The cwd of the real CLIs' recordings (`fixtures/real` of @cairn/agent-cli). */
export const REAL_FIXTURE_CWD = recordedFixtureCwd(
  new URL('../../../agent-cli/fixtures/real/', import.meta.url),
);

/** A completed, successful call of `toolName` with `input`; `result` overrides any field. */
export function toolCall(
  toolName: string,
  input: JsonValue,
  result: Partial<ToolCallView> = {},
): ToolCallView {
  return { toolName, toolUseId: 'call_1', input, output: '', isError: false, status: 'completed', ...result };
}

export interface ToolProcessorTestKit {
  registry: ToolProcessorRegistry;
  /** A call made in the kit's cwd (see `toolCall`). */
  call(toolName: string, input: JsonValue, result?: Partial<ToolCallView>): ToolCallView;
  /** The registry's description of that call. */
  describeCall(toolName: string, input: JsonValue, result?: Partial<ToolCallView>): ToolDescription;
}

/** A registry of `processors` and calls made in `cwd`. */
export function toolProcessorTestKit(processors: Iterable<ToolProcessor>, cwd: string): ToolProcessorTestKit {
  const registry = new ToolProcessorRegistry(processors);
  const call = (toolName: string, input: JsonValue, result: Partial<ToolCallView> = {}) =>
    toolCall(toolName, input, { cwd, ...result });
  return {
    registry,
    call,
    describeCall: (toolName, input, result) => registry.describe(call(toolName, input, result)),
  };
}
