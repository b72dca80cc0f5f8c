import { createQwenCodeConverter } from '@cairn/agent-cli/qwen-code';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentPermissionMode } from './agent-permissions.js';
import { geminiStyleCliArgs } from './gemini-style-cli-args.js';

// `qwen --help` (0.15.10): plan | default | auto-edit | yolo.
const APPROVAL_MODES: Readonly<Record<AgentPermissionMode, string>> = {
  // Headless, the default mode refuses every tool that would ask for approval.
  'read-only': 'default',
  edit: 'auto-edit',
  full: 'yolo',
};

/**
 * Qwen Code in headless mode: `qwen --prompt=<prompt> --output-format stream-json …`.
 *
 * - The prompt is `--prompt=<prompt>` (joined, so a prompt starting with `-` stays its value):
 *   0.15.10 takes no prompt after `--` ("No input provided via stdin").
 * - `--resume=<session id>` continues the session of the `init` line; Qwen Code keeps sessions per
 *   project directory, so the executor resumes from the directory the session was recorded in.
 * - Permissions: `--approval-mode=default|auto-edit|yolo` (headless, `default` refuses what would
 *   ask) and one `--allowed-tools=<tool>` per allowed tool, as Gemini CLI, which it forks.
 * - Stopping (0.15.10, `fixtures/real/README.md` of `@cairn/agent-cli`): `qwen` relaunches itself as
 *   a child `node` with a larger heap, and the launcher has no signal handler, so a signal to it
 *   ends only the launcher while the child, the real CLI, runs the turn to its end. An abort sends
 *   SIGKILL to the whole process group at once: it ends the child and the tools it started, and an
 *   aborted run needs no result line, so a grace period would only let the agent carry on.
 */
export const qwenCodeCli: AgentCliDefinition = {
  name: 'Qwen Code',
  provider: 'qwen-code',
  defaultCommand: 'qwen',
  ...geminiStyleCliArgs({ modelFlag: '--model', approvalModes: APPROVAL_MODES }),
  stop: { signal: 'SIGKILL' },
  writesResult: true,
  createConverter: () => createQwenCodeConverter(),
};
