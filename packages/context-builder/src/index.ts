// Re-exported: it was this package's own type before it moved to core.
export type { LayeredToolPolicy } from '@cairn/core';
export type { AgentPersona } from './agent-persona.js';
export { type CompactionRecord, latestCompaction } from './apply-compaction.js';
export type { ToolDescription, ToolPolicyInput } from './available-tools.js';
export {
  type BuildLlmMessagesParams,
  type BuildLlmMessagesResult,
  buildLlmMessagesFromConversation,
  type ContextBuilderSettings,
  type ContextStats,
} from './build-llm-messages.js';
export { composeSystemPrompt, type SystemPromptParams } from './compose-system-prompt.js';
export { estimateTokens, TOKEN_ESTIMATE_NAME } from './estimate-tokens.js';
export { DEFAULT_MODE_PROFILES, type ModeProfiles } from './mode-profiles.js';
export { repairToolPairs, type ToolPairRepair } from './repair-tool-pairs.js';
export {
  parseRunContext,
  RUN_STATUSES,
  type RunContext,
  RunContextSchema,
  type RunEdge,
  RunEdgeSchema,
  type RunStatus,
  type RunStepRef,
  RunStepRefSchema,
  runContextIssues,
} from './run-context.js';
