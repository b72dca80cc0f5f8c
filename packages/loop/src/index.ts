export {
  chatToolLoop,
  chatToolLoop as runToolLoop,
  DEFAULT_MAX_TURNS,
  DEFAULT_TOOL_CONCURRENCY,
} from './chat-tool-loop.js';
export type {
  ChatToolLoopFailure,
  ChatToolLoopOutcome,
  ChatToolLoopParams,
  ChatToolLoopResult,
  ChatToolLoopSuccess,
  LoopAssistantMessage,
  LoopContext,
  LoopMessageFields,
  LoopToolMessage,
  LoopUserMessage,
  MaybePromise,
  OutputObject,
  TurnEndInfo,
  TurnInfo,
} from './chat-tool-loop-types.js';
export {
  createToolHost,
  DEFAULT_TOOL_TIMEOUT_MS,
  type ToolHostOptions,
  type ToolRegistry,
} from './create-tool-host.js';
export { defineTool, type ToolDefinition } from './define-tool.js';
export { DEFAULT_STUCK_THRESHOLD, type FailState, failFingerprint } from './failing-call-tracker.js';
export { parsePartialJson } from './parse-partial-json.js';
export {
  DEFAULT_OUTPUT_RETRIES,
  type OutputIssue,
  type StructuredOutput,
  type StructuredOutputOptions,
} from './structured-output.js';
export { type ToolFailureCode, toolFailure } from './tool-failure.js';
export { toolInputJsonSchema } from './tool-input-json-schema.js';
