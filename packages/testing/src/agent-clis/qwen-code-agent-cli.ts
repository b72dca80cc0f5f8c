import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AgentCliDefinition } from './agent-cli-definition.js';
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
  dialect: {
    // Gemini CLI's tools (Qwen Code forks it), but `edit` for `replace`; file paths are absolute.
    toolCall(action, cwd) {
      switch (action.kind) {
        case 'write':
          return {
            name: 'write_file',
            arguments: { file_path: resolve(cwd, action.path), content: action.content },
          };
        case 'edit':
          return {
            name: 'edit',
            arguments: {
              file_path: resolve(cwd, action.path),
              old_string: action.oldText,
              new_string: action.newText,
            },
          };
        case 'shell':
          return { name: 'run_shell_command', arguments: { command: action.command } };
        case 'read':
          return { name: 'read_file', arguments: { file_path: resolve(cwd, action.path) } };
        case 'native':
          return { name: action.name, arguments: action.input };
      }
    },
  },
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
