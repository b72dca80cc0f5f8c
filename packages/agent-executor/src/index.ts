export type {
  AgentCliArgsInput,
  AgentCliDefinition,
  AgentCliStop,
  StderrEventConverter,
} from './agent-cli-definition.js';
export type { AgentCliName, AgentExecutorOptions, AgentRunOptions } from './agent-executor-options.js';
export {
  AGENT_PERMISSION_MODES,
  type AgentPermissionMode,
  type AgentPermissions,
  AgentPermissionsSchema,
  AllowedToolSchema,
} from './agent-permissions.js';
export type { AgentRunError, AgentRunResult } from './agent-run-result.js';
export { agentTranscriptRef } from './agent-transcript-ref.js';
export { claudeCodeCli } from './claude-code-cli.js';
export { codexCli } from './codex-cli.js';
export { type AgentExecutor, createAgentExecutor } from './create-agent-executor.js';
export { type FindResumeSessionOptions, findResumeSession } from './find-resume-session.js';
export { geminiCli } from './gemini-cli.js';
export { qwenCodeCli } from './qwen-code-cli.js';
export { RESUME_SESSION_ID_PATTERN } from './resume-session-id.js';
export { DEFAULT_KILL_GRACE_MS } from './spawn-agent-process.js';
export { DEFAULT_STDERR_LIMIT } from './stderr-tail.js';
export { MAX_TRANSCRIPT_BYTES } from './transcript-buffer.js';
