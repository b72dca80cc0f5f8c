import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import type { AgentCliDefinition } from './agent-cli-definition.js';

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
  createConverter: () => createClaudeCodeConverter(),
};
