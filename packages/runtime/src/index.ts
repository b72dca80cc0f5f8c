export { type AgentRuntime, createAgentRuntime } from './create-agent-runtime.js';
export { messagesForProvider } from './messages-for-provider.js';
export { createReadToolOutputTool, READ_TOOL_OUTPUT_TOOL_NAME } from './read-tool-output-tool.js';
export * from './runs/index.js';
export type {
  AgentRuntimeOptions,
  ChatParams,
  ChatResult,
  CompressParams,
  CompressResult,
  RuntimeAgent,
  RuntimeEvent,
  RuntimeEventListener,
  RuntimeLogger,
  RuntimeSettings,
} from './runtime-types.js';
export { createTurnEnvironment } from './turn-environment.js';
