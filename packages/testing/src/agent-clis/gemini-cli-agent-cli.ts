import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import { filePathToolDialect } from './file-path-tool-dialect.js';
import { nodeBinCommand } from './node-bin-command.js';

/** Gemini CLI (`@google/gemini-cli`): `gemini -p … --output-format stream-json`, run with this Node. */
export const geminiCliAgentCli: AgentCliDefinition = {
  name: 'gemini-cli',
  programName: 'gemini',
  packageName: '@google/gemini-cli',
  wire: 'gemini',
  dialect: filePathToolDialect(
    { write: 'write_file', edit: 'replace', read: 'read_file', shell: 'run_shell_command' },
    { editInstruction: 'Change the greeting.', describeShell: true },
  ),
  resolve: (require) => nodeBinCommand(require, '@google/gemini-cli', 'gemini'),
  args(settings) {
    const yolo = settings.permissions === 'all' ? ['--yolo'] : [];
    const resume = settings.resumeSessionId === undefined ? [] : ['--resume', settings.resumeSessionId];
    return ['-p', settings.prompt, '--output-format', 'stream-json', ...yolo, ...resume];
  },
  async writeSettings(home, settings) {
    const file = {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      // GOOGLE_GEMINI_BASE_URL alone makes the auth type `gateway`, which 0.61.0 rejects.
      security: { auth: { selectedType: 'gemini-api-key' } },
      // Without --yolo, headless Gemini drops mutating tools that are not listed here.
      ...(settings.permissions === 'all' ? {} : { tools: { allowed: settings.permissions } }),
    };
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(join(home, '.gemini', 'settings.json'), `${JSON.stringify(file, null, 2)}\n`);
  },
};
