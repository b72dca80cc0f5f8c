// The converters moved to @cairn/agent-cli, which installs no vendor SDK. This subpath re-exports
// the same functions (not copies) for one minor version, each marked so editors flag the old import.
import * as claudeCode from '@cairn/agent-cli/claude-code';

/** @deprecated Import from `@cairn/agent-cli/claude-code`; this subpath is removed in the next minor version. */
export const convertClaudeCodeResult = claudeCode.convertClaudeCodeResult;
/** @deprecated Import from `@cairn/agent-cli/claude-code`; this subpath is removed in the next minor version. */
export const convertClaudeCodeStream = claudeCode.convertClaudeCodeStream;
/** @deprecated Import from `@cairn/agent-cli/claude-code`; this subpath is removed in the next minor version. */
export const createClaudeCodeConverter = claudeCode.createClaudeCodeConverter;
/** @deprecated Import from `@cairn/agent-cli/claude-code`; this subpath is removed in the next minor version. */
export type ClaudeCodeConverter = claudeCode.ClaudeCodeConverter;
/** @deprecated Import from `@cairn/agent-cli/claude-code`; this subpath is removed in the next minor version. */
export type ClaudeCodeConverterOptions = claudeCode.ClaudeCodeConverterOptions;
