export {
  type AgentOutput,
  type AgentOutputOf,
  AgentOutputSchema,
  type AgentOutputType,
  ErrorEventSchema,
  FinishEventSchema,
  isAgentOutput,
  parseAgentOutput,
  ReasoningDeltaEventSchema,
  ReasoningEventSchema,
  SessionResultEventSchema,
  SessionStartEventSchema,
  TextDeltaEventSchema,
  TextEventSchema,
  ToolInputDeltaEventSchema,
  ToolResultEventSchema,
  ToolUseEventSchema,
  UnknownEventSchema,
  UsageEventSchema,
} from './agent-output/agent-output.js';
export { type FinishReason, FinishReasonSchema } from './agent-output/finish-reason.js';
export { addTokenUsage, type TokenUsage, TokenUsageSchema } from './agent-output/token-usage.js';
export {
  CairnError,
  type CairnErrorJSON,
  type CairnErrorOptions,
  toCairnError,
} from './errors/cairn-error.js';
export {
  CAIRN_ERROR_CODES,
  type CairnErrorCode,
  CairnErrorCodeSchema,
  isRetryableByDefault,
} from './errors/cairn-error-code.js';
export { assertSafeId, isSafeId, SAFE_ID_PATTERN } from './ids/assert-safe-id.js';
export { agentOutputJsonSchema, conversationMessageJsonSchema } from './json-schema.js';
export {
  type ConversationMessage,
  type ConversationMessageRole,
  ConversationMessageRoleSchema,
  ConversationMessageSchema,
  type ConversationMode,
  ConversationModeSchema,
  isIncludedInContext,
  isToolCallMessage,
  isValidConversationMessage,
  parseConversationMessage,
} from './messages/conversation-message.js';
export { type MessagePartType, MessagePartTypeSchema } from './messages/message-part-type.js';
export {
  type OpenAIAssistantMessage,
  OpenAIAssistantMessageSchema,
  type OpenAIChatMessage,
  OpenAIChatMessageSchema,
  type OpenAISystemMessage,
  OpenAISystemMessageSchema,
  type OpenAIToolCall,
  OpenAIToolCallSchema,
  type OpenAIToolMessage,
  OpenAIToolMessageSchema,
  type OpenAIUserMessage,
  OpenAIUserMessageSchema,
} from './messages/openai-chat-message.js';
export { type ProviderMetadata, ProviderMetadataSchema } from './messages/provider-metadata.js';
export { toOpenAIMessage } from './messages/to-openai-message.js';
export { TOOL_OUTPUT_PREVIEW_LENGTH, TOOL_OUTPUT_THRESHOLD } from './messages/tool-output-limits.js';
export {
  type WidgetAction,
  WidgetActionSchema,
  type WidgetFeedbackItem,
  WidgetFeedbackItemSchema,
  type WidgetOption,
  WidgetOptionSchema,
  type WidgetPayload,
  WidgetPayloadSchema,
  type WidgetType,
  WidgetTypeSchema,
} from './messages/widget.js';
export type {
  JsonSchema,
  ModelAdapter,
  ModelCapabilities,
  ModelRequest,
  ModelResult,
  ModelSettings,
  ModelStream,
  ModelToolChoice,
  ModelToolDefinition,
} from './model/model-adapter.js';
export type {
  AppendOptions,
  AppendResult,
  BlobRange,
  ConversationPage,
  ConversationStore,
  ConversationSummary,
  LoadOptions,
  StoreCapabilities,
} from './store/conversation-store.js';
export type { Tokenizer } from './tokenizer/tokenizer.js';
export type { Tool, ToolCallResult, ToolContext, ToolExecutionOptions, ToolHost } from './tools/tool.js';
export {
  type CommandOutputDetails,
  CommandOutputDetailsSchema,
  type DiffDetails,
  DiffDetailsSchema,
  type FileListDetails,
  FileListDetailsSchema,
  type ToolDetails,
  ToolDetailsSchema,
  type ToolExecutionMetadata,
  ToolExecutionMetadataSchema,
} from './tools/tool-execution-metadata.js';
export {
  isToolAllowed,
  mergeToolPolicies,
  type ToolIdentity,
  type ToolPolicy,
  ToolPolicySchema,
  type ToolSelector,
  ToolSelectorSchema,
} from './tools/tool-policy.js';
export {
  assertValid,
  formatIssuePath,
  type ValidationIssue,
  validationIssues,
} from './validation/validate.js';
