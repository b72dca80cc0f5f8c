import { createCodexConverter } from '@cairn/agent-cli/codex';
import { CairnError } from '@cairn/core';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentPermissionMode } from './agent-permissions.js';

// Codex's sandbox decides what the agent's commands may do (`codex exec --help`, 0.171.0).
const SANDBOX_MODES: Readonly<Record<AgentPermissionMode, string>> = {
  'read-only': 'read-only',
  edit: 'workspace-write',
  full: 'danger-full-access',
};

/**
 * OpenAI's Codex CLI, non-interactive: `codex exec [resume <thread id>] --json … -- <prompt>`.
 *
 * - `--json` prints one event per line (`thread.started`, `item.*`, `turn.completed`, …).
 * - Resume is the `resume` subcommand of `exec` with the thread id of `thread.started` as its
 *   first positional argument (`codex exec resume --help`); the executor has checked the id
 *   (`RESUME_SESSION_ID_PATTERN`), so it cannot be read as an option. `resume` takes `-m`, `-c` and
 *   `--json` but not `-s/--sandbox`: pass sandbox settings as `-c sandbox_mode="workspace-write"`,
 *   which both forms accept.
 * - The prompt goes last, after `--`, so a prompt starting with `-` is not read as an option.
 * - Codex's own safety defaults stay: a read-only sandbox and a refusal to run outside a git
 *   repository. Callers relax them on purpose through `extraArgs` (`--skip-git-repo-check`,
 *   `-c sandbox_mode="workspace-write"`, `--dangerously-bypass-approvals-and-sandbox` where
 *   something else isolates the agent). `exec` never asks for approval.
 * - Permissions: `-c sandbox_mode="read-only|workspace-write|danger-full-access"` (the `-c` form,
 *   as `resume` has no `--sandbox`) and `-c approval_policy="never"`, which `exec` uses anyway: a
 *   config file asking for approvals cannot make a headless run wait. `edit` is `workspace-write`:
 *   the agent may write inside the working directory, by its patches and by its commands alike
 *   (Codex has no separate rule for commands). Codex has no per-tool allow list, so `allowedTools`
 *   is refused (`INVALID_ARGUMENT`) rather than silently ignored.
 * - Stopping (measured with 0.171.0, `fixtures/real/README.md` of `@cairn/agent-cli`): SIGTERM
 *   kills it at once and SIGINT ends it within about 0.15 s (exit 1); either way the running command
 *   is gone too and Codex prints nothing more. It gets SIGINT, the signal it is meant to stop on.
 */
export const codexCli: AgentCliDefinition = {
  name: 'Codex CLI',
  provider: 'codex',
  defaultCommand: 'codex',
  buildArgs({ prompt, model, resumeSessionId, extraArgs }) {
    return [
      'exec',
      ...(resumeSessionId === undefined ? [] : ['resume', resumeSessionId]),
      '--json',
      ...(model === undefined ? [] : ['--model', model]),
      ...extraArgs,
      '--',
      prompt,
    ];
  },
  stop: { signal: 'SIGINT' },
  writesResult: true,
  permissionArgs({ mode, allowedTools }) {
    if (allowedTools !== undefined && allowedTools.length > 0) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        'Codex CLI has no per-tool allow list: pass permissions without allowedTools (its sandbox mode decides)',
      );
    }
    return ['-c', `sandbox_mode="${SANDBOX_MODES[mode]}"`, '-c', 'approval_policy="never"'];
  },
  createConverter: () => createCodexConverter(),
};
