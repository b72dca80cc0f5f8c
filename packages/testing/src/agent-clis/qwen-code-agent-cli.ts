import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import { filePathToolDialect } from './file-path-tool-dialect.js';
import { nodeBinCommand } from './node-bin-command.js';

/**
 * Qwen Code (`@qwen-code/qwen-code`): `qwen --output-format stream-json … --prompt=<prompt>`, run
 * with this Node, against the OpenAI Chat Completions stand-in (`OPENAI_BASE_URL`). 0.15.10 takes
 * no prompt after `--`, so it is the joined `--prompt=` value.
 */
export const qwenCodeAgentCli: AgentCliDefinition = {
  name: 'qwen-code',
  programName: 'qwen',
  packageName: '@qwen-code/qwen-code',
  wire: 'openai',
  // Gemini CLI's tools (Qwen Code forks it), but `edit` for `replace`.
  dialect: filePathToolDialect({
    write: 'write_file',
    edit: 'edit',
    read: 'read_file',
    shell: 'run_shell_command',
  }),
  resolve: (require) => nodeBinCommand(require, '@qwen-code/qwen-code', 'qwen'),
  args(settings) {
    const permissions =
      settings.permissions === 'all'
        ? ['--yolo']
        : settings.permissions.map((tool) => `--allowed-tools=${tool}`);
    return [
      '--output-format',
      'stream-json',
      ...permissions,
      ...(settings.resumeSessionId === undefined ? [] : [`--resume=${settings.resumeSessionId}`]),
      `--prompt=${settings.prompt}`,
    ];
  },
  async writeSettings(home) {
    const file = {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'openai' } },
      general: { enableAutoUpdate: false },
    };
    await mkdir(join(home, '.qwen'), { recursive: true });
    await writeFile(join(home, '.qwen', 'settings.json'), `${JSON.stringify(file, null, 2)}\n`);
  },
  env: ({ baseURL }) => ({
    OPENAI_API_KEY: 'dummy',
    OPENAI_BASE_URL: baseURL,
    OPENAI_MODEL: 'qwen3-coder-plus',
  }),
};
