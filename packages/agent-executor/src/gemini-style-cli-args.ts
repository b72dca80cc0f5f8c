import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentPermissionMode } from './agent-permissions.js';

/**
 * The command line Gemini CLI and its fork Qwen Code share: `--prompt=<prompt>` (joined, so a
 * prompt starting with `-` stays its value), stream-json output, `--resume=<session id>`, and the
 * permissions as `--approval-mode=<mode>` plus one `--allowed-tools=<tool>` per allowed tool. They
 * differ only in the model flag and the words of their approval modes.
 */
export function geminiStyleCliArgs(options: {
  modelFlag: string;
  approvalModes: Readonly<Record<AgentPermissionMode, string>>;
}): Pick<AgentCliDefinition, 'buildArgs' | 'permissionArgs'> {
  return {
    buildArgs({ prompt, model, resumeSessionId, extraArgs }) {
      return [
        `--prompt=${prompt}`,
        '--output-format',
        'stream-json',
        ...(model === undefined ? [] : [options.modelFlag, model]),
        ...(resumeSessionId === undefined ? [] : [`--resume=${resumeSessionId}`]),
        ...extraArgs,
      ];
    },
    permissionArgs({ mode, allowedTools }) {
      return [
        `--approval-mode=${options.approvalModes[mode]}`,
        ...(allowedTools ?? []).map((tool) => `--allowed-tools=${tool}`),
      ];
    },
  };
}
