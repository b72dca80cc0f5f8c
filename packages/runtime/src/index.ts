// The public API, listed name by name: what an application needs to run chats and workflow runs.
// The run machinery (records, registry, step logic, turn environment) stays internal; the package's
// own tests import it from its modules.
export { type AgentRuntime, createAgentRuntime } from './create-agent-runtime.js';
export type { ApprovalsApi, ApprovalView, DecideApprovalParams } from './ledger/approvals-api.js';
export { MAX_IDEMPOTENT_RERUNS } from './ledger/settle-calls.js';
export { messagesForProvider } from './messages-for-provider.js';
export { createReadToolOutputTool, READ_TOOL_OUTPUT_TOOL_NAME } from './read-tool-output-tool.js';
export {
  COMPLETE_STEP_TOOL_NAME,
  type CompleteStepOutput,
  parseWorkflowDefinition,
  parseWorkflowPackage,
  type RunApi,
  type RunContinueParams,
  type RunEvent,
  type RunEventListener,
  type RunPage,
  type RunRecoverParams,
  type RunResult,
  type RunStartParams,
  type RunState,
  RunStateSchema,
  type RunStepChangedEvent,
  readWorkflowFile,
  runConversationId,
  runIdOfConversation,
  WORKFLOW_FORMAT_URL,
  type WorkflowDefinition,
  WorkflowDefinitionSchema,
  type WorkflowEdge,
  WorkflowEdgeSchema,
  type WorkflowNode,
  WorkflowNodeSchema,
  type WorkflowPackage,
  WorkflowPackageSchema,
  type WorkflowRef,
} from './runs/index.js';
export type {
  AgentRuntimeOptions,
  ApprovalSettings,
  ChatParams,
  ChatResult,
  CompressionTrigger,
  CompressParams,
  CompressResult,
  ResumeParams,
  RuntimeAgent,
  RuntimeEvent,
  RuntimeEventListener,
  RuntimeLogger,
  RuntimeSettings,
} from './runtime-types.js';
export type { ChatStream, ChatStreamEvent } from './stream/chat-stream.js';
export { EventLog } from './stream/event-log.js';
export type { ContinuedCall } from './ui-stream/continued-calls.js';
export {
  createUIMessageChunkMapper,
  type UIMessageChunkMapper,
  type UIMessageStreamOptions,
  type UITurnOutcome,
  uiTurnOutcome,
} from './ui-stream/to-ui-message-chunks.js';
export {
  type CairnUIMessageMetadata,
  CairnUIMessageMetadataSchema,
  type UIFinishReason,
  type UIMessageChunk,
  UIMessageChunkSchema,
} from './ui-stream/ui-message-chunk.js';
export {
  createUIMessageStreamResponse,
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessageSseOptions,
  uiMessageChunksToSse,
} from './ui-stream/ui-message-stream-response.js';
