export {
  type AgentOutput,
  type AgentOutputOf,
  AgentOutputSchema,
  type AgentOutputType,
  ErrorEventSchema,
  FinishEventSchema,
  isAgentOutput,
  PartialObjectEventSchema,
  parseAgentOutput,
  ReasoningDeltaEventSchema,
  ReasoningEventSchema,
  RetryEventSchema,
  SessionResultEventSchema,
  SessionStartEventSchema,
  StatusEventSchema,
  TaskProgressEventSchema,
  TextDeltaEventSchema,
  TextEventSchema,
  ToolInputDeltaEventSchema,
  ToolResultEventSchema,
  ToolUseEventSchema,
  UnknownEventSchema,
  UsageEventSchema,
  UserMessageEventSchema,
} from './agent-output/agent-output.js';
export { type FinishReason, FinishReasonSchema } from './agent-output/finish-reason.js';
export { addTokenUsage, type TokenUsage, TokenUsageSchema } from './agent-output/token-usage.js';
export type { HistoryCompressionResult, LoopCompressionPipeline } from './compression/loop-compression.js';
export { KeyedSerialQueue, type KeyedSerialRunOptions } from './concurrency/keyed-serial-queue.js';
export {
  acceptsMediaType,
  assertSupportedParts,
  type SupportedParts,
} from './content/assert-supported-parts.js';
export {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MEDIA_TYPES,
  type AttachmentOptions,
  createAttachmentPart,
  mediaTypeFromFileName,
} from './content/attachment.js';
export { base64ByteLength, base64ToBytes, bytesToBase64 } from './content/base64.js';
export {
  type Base64Source,
  Base64SourceSchema,
  type BlobSource,
  BlobSourceSchema,
  type ContentPart,
  ContentPartSchema,
  type FilePart,
  FilePartSchema,
  type ImagePart,
  ImagePartSchema,
  INLINE_DATA_LIMIT,
  isMediaPart,
  type MediaPart,
  type MessageContent,
  MessageContentSchema,
  type OtherPart,
  OtherPartSchema,
  type PartSource,
  PartSourceSchema,
  type TextPart,
  TextPartSchema,
  type UrlSource,
  UrlSourceSchema,
} from './content/content-part.js';
export {
  contentParts,
  contentText,
  hasNonTextParts,
  isTextPart,
  partPlaceholder,
} from './content/content-text.js';
export {
  type CreatePartOptions,
  createContentPart,
  createFilePart,
  createImagePart,
} from './content/create-part.js';
export { assertMediaBytes, imageSize, sniffMediaType } from './content/media-bytes.js';
export { mediaPartUrl, toOpenAIUserContent } from './content/to-openai-content.js';
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
export { assertSafeId, assertSafeRef, isSafeId, SAFE_ID_PATTERN } from './ids/assert-safe-id.js';
export { createMessageIds } from './ids/create-message-ids.js';
export { agentOutputJsonSchema, conversationMessageJsonSchema } from './json-schema.js';
export { activeBranch } from './messages/active-branch.js';
export { compactStructuredResult } from './messages/compact-structured-result.js';
export { type Compaction, CompactionSchema, compactionSummaryText } from './messages/compaction.js';
export {
  type ConversationMessage,
  ConversationMessageSchema,
  type ConversationMode,
  ConversationModeSchema,
  isDisplayOnlyMessage,
  isIncludedInContext,
  isToolCallMessage,
  isValidConversationMessage,
  parseConversationMessage,
} from './messages/conversation-message.js';
export {
  type ConversationMessageRole,
  ConversationMessageRoleSchema,
} from './messages/conversation-message-role.js';
export {
  createInterruptedToolResult,
  INTERRUPTED_TOOL_RESULT_TEXT,
  type InterruptedToolResultInit,
} from './messages/interrupted-tool-result.js';
export { type JsonValue, JsonValueSchema } from './messages/json-value.js';
export {
  APPROVAL_DECISION_PART_TYPE,
  APPROVAL_REQUEST_PART_TYPE,
  approvalDecisionRecord,
  approvalRequestRecord,
  isLedgerRecord,
  type LedgerRecordFields,
  ledgerRecordIds,
  TOOL_INTENT_PART_TYPE,
  toolIntentRecord,
} from './messages/ledger-records.js';
export {
  type ApprovalDecision,
  ApprovalDecisionSchema,
  type ApprovalOutcome,
  ApprovalOutcomeSchema,
  type ApprovalRecord,
  ApprovalRecordSchema,
  type ApprovalRequest,
  ApprovalRequestSchema,
  type ToolIntent,
  ToolIntentSchema,
} from './messages/ledger-schemas.js';
export {
  DISPLAY_ONLY_PART_TYPES,
  KNOWN_MESSAGE_PART_TYPES,
  type KnownMessagePartType,
  type MessagePartType,
  MessagePartTypeSchema,
} from './messages/message-part-type.js';
export {
  type ModelAssistantMessage,
  ModelAssistantMessageSchema,
  type ModelMessage,
  ModelMessageSchema,
  type ModelSystemMessage,
  ModelSystemMessageSchema,
  type ModelToolMessage,
  ModelToolMessageSchema,
  type ModelUserMessage,
  ModelUserMessageSchema,
} from './messages/model-message.js';
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
  type OpenAIUserContentPart,
  OpenAIUserContentPartSchema,
  type OpenAIUserMessage,
  OpenAIUserMessageSchema,
} from './messages/openai-chat-message.js';
export { MAX_MESSAGE_DEPTH, parseMessageForStorage } from './messages/parse-message-for-storage.js';
export { type ProviderMetadata, ProviderMetadataSchema } from './messages/provider-metadata.js';
export {
  type ApprovalEntry,
  type ApprovalStatus,
  approvalEntryOf,
  approvalStatus,
  isApprovalExpired,
  type LedgerCall,
  readToolLedger,
  type ToolLedger,
  unsettledCalls,
} from './messages/read-tool-ledger.js';
export { type ReasoningPart, ReasoningPartSchema } from './messages/reasoning-part.js';
export {
  isTitleRecord,
  MAX_CONVERSATION_TITLE_LENGTH,
  normalizeConversationTitle,
  TITLE_PART_TYPE,
  titleRecord,
  titleRecordText,
} from './messages/title-record.js';
export { toModelMessage } from './messages/to-model-message.js';
export { toOpenAIChatMessage, toOpenAIMessage } from './messages/to-openai-message.js';
export {
  DEFAULT_MAX_TOOL_RESULT_CHARS,
  resolveMaxToolResultChars,
  type ToolOutputSource,
  toolOutputForModel,
} from './messages/tool-output-for-model.js';
export {
  fullOutputMarker,
  TOOL_OUTPUT_PREVIEW_LENGTH,
  TOOL_OUTPUT_THRESHOLD,
} from './messages/tool-output-limits.js';
export {
  type ProtocolMessage,
  type ToolProtocolIssue,
  toolProtocolIssues,
} from './messages/tool-protocol.js';
export {
  MAX_TOOL_INPUT_DEPTH,
  nestsDeeperThan,
  truncateDeepJson,
  truncatedJsonMarker,
} from './messages/truncate-deep-json.js';
export {
  KNOWN_WIDGET_TYPES,
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
  ModelOutputFormat,
  ModelRequest,
  ModelResult,
  ModelSettings,
  ModelStream,
  ModelToolChoice,
  ModelToolDefinition,
} from './model/model-adapter.js';
export { type DefinedFields, definedFields, type MaybeUndefinedKeys } from './objects/defined-fields.js';
export {
  assertStandardSchema,
  type StandardJSONSchemaV1,
  type StandardSchemaIssue,
  type StandardSchemaJsonSchemaOptions,
  type StandardSchemaResult,
  type StandardSchemaV1,
  SUPPORTED_SCHEMAS,
  standardSchemaJsonSchema,
  validateStandardSchema,
} from './standard-schema.js';
export type {
  AppendOptions,
  AppendResult,
  BlobRange,
  ConversationPage,
  ConversationStore,
  ConversationSummary,
  ListConversationsOptions,
  LoadOptions,
  StoreCapabilities,
} from './store/conversation-store.js';
export type { AcquireLeaseOptions, Lease, LeaseHolder, LeaseStore } from './store/lease-store.js';
export { assertStoreSearches, MAX_SEARCH_LENGTH } from './store/store-search.js';
export {
  type AgentInvocation,
  type AgentInvocationOutcome,
  type ModelCall,
  noopTelemetry,
  type ServerRequest,
  type ServerResponse,
  type Telemetry,
  type TelemetryScope,
  type ToolExecution,
} from './telemetry/telemetry.js';
export type { Tokenizer } from './tokenizer/tokenizer.js';
export type {
  Tool,
  ToolApprovalAnswer,
  ToolApprovalRequest,
  ToolCallResult,
  ToolContext,
  ToolExecutionOptions,
  ToolHost,
  ToolRunRefusal,
  ToolRunRequest,
} from './tools/tool.js';
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
  type LayeredToolPolicy,
  mergeToolPolicies,
  type ToolIdentity,
  type ToolPolicy,
  ToolPolicySchema,
  type ToolSelector,
  ToolSelectorSchema,
} from './tools/tool-policy.js';
export { assertValid, type ValidationIssue, validationIssues } from './validation/validate.js';
