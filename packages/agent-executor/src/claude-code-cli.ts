import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentPermissionMode } from './agent-permissions.js';

const PERMISSION_MODES: Readonly<Record<AgentPermissionMode, string>> = {
  // In print mode the default mode refuses every tool that would ask (edits, commands).
  'read-only': 'default',
  edit: 'acceptEdits',
  full: 'bypassPermissions',
};

/**
 * Claude Code in print mode: `claude -p --output-format stream-json --verbose … -- <prompt>`.
 * Print mode refuses `stream-json` without `--verbose`; `--resume=<session id>` continues a session.
 * The id is joined to the option (Claude Code parses with commander, which reads `--option=value`
 * for an option taking a value): passed as a separate argument, a value starting with `-` would be
 * read as another option. The executor checks the id (`RESUME_SESSION_ID_PATTERN`) as well.
 *
 * `-p` (`--print`) is a switch and the prompt a positional argument, so the prompt goes last, after
 * `--`: a prompt starting with `-` (a markdown list) would otherwise be parsed as an option and the
 * CLI would exit with "unknown option" (anthropics/claude-code#25925, #3844).
 *
 * Abort: SIGINT. Measured on 2.1.197, SIGTERM only kills the running tool and the agent loop goes
 * on (a new API request, more turns); SIGINT rejects the running call, writes an
 * `error_during_execution` result and exits 1.
 */
export const claudeCodeCli: AgentCliDefinition = {
  name: 'Claude Code',
  provider: 'claude-code',
  defaultCommand: 'claude',
  buildArgs({ prompt, model, resumeSessionId, extraArgs }) {
    return [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      ...(model === undefined ? [] : ['--model', model]),
      ...(resumeSessionId === undefined ? [] : [`--resume=${resumeSessionId}`]),
      ...extraArgs,
      '--',
      prompt,
    ];
  },
  stop: { signal: 'SIGINT' },
  permissionArgs({ mode, allowedTools }) {
    return [
      `--permission-mode=${PERMISSION_MODES[mode]}`,
      ...(allowedTools === undefined || allowedTools.length === 0
        ? []
        : [`--allowedTools=${allowedTools.join(',')}`]),
    ];
  },
  createConverter: () => createClaudeCodeConverter(),
};
