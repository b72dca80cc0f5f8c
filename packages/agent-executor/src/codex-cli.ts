import { createCodexConverter } from '@cairn/agent-cli/codex';
import type { AgentCliDefinition } from './agent-cli-definition.js';

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
 * - Stopping (measured with 0.171.0, `fixtures/real/codex/README.md` of `@cairn/agent-cli`): SIGTERM
 *   kills it at once and SIGINT ends it within about 0.15 s (exit 1); either way the running command
 *   is gone too and Codex prints nothing more.
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
  createConverter: () => createCodexConverter(),
};
