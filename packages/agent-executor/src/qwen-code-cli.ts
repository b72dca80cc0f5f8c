import { createQwenCodeConverter } from '@cairn/agent-cli/qwen-code';
import type { AgentCliDefinition } from './agent-cli-definition.js';

/**
 * Qwen Code in headless mode: `qwen --prompt=<prompt> --output-format stream-json …`.
 *
 * - The prompt is `--prompt=<prompt>` (joined, so a prompt starting with `-` stays its value):
 *   0.15.10 takes no prompt after `--` ("No input provided via stdin").
 * - `--resume=<session id>` continues the session of the `init` line; Qwen Code keeps sessions per
 *   project directory, so the executor resumes from the directory the session was recorded in.
 * - Approval: headless Qwen Code runs only what needs no approval; pass `--yolo` or
 *   `--approval-mode auto-edit` in `extraArgs` on purpose.
 * - Stopping (measured with 0.15.10, `fixtures/real/qwen-code/README.md` of `@cairn/agent-cli`):
 *   SIGINT and SIGTERM do not stop it — it finishes the run, then dies by the signal — so an abort
 *   ends it with the executor's SIGKILL after `killGraceMs`.
 */
export const qwenCodeCli: AgentCliDefinition = {
  name: 'Qwen Code',
  provider: 'qwen-code',
  defaultCommand: 'qwen',
  buildArgs({ prompt, model, resumeSessionId, extraArgs }) {
    return [
      `--prompt=${prompt}`,
      '--output-format',
      'stream-json',
      ...(model === undefined ? [] : ['--model', model]),
      ...(resumeSessionId === undefined ? [] : [`--resume=${resumeSessionId}`]),
      ...extraArgs,
    ];
  },
  createConverter: () => createQwenCodeConverter(),
};
