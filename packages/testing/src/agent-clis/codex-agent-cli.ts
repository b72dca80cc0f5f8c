import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import { nodeBinCommand } from './node-bin-command.js';

// Codex writes files with its freeform `apply_patch` tool, in its own patch format.
const addFilePatch = (path: string, content: string) =>
  `*** Begin Patch\n*** Add File: ${path}\n${content
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `+${line}\n`)
    .join('')}*** End Patch\n`;
const updateFilePatch = (path: string, oldText: string, newText: string) =>
  `*** Begin Patch\n*** Update File: ${path}\n@@\n-${oldText}\n+${newText}\n*** End Patch\n`;

// `$CODEX_HOME/config.toml`: the stand-in as the model provider (Responses API), fast retries,
// nothing reported anywhere.
const codexConfig = (baseURL: string) => `model = "gpt-5.5"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "Cairn mock"
base_url = "${baseURL}"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
request_max_retries = 2
stream_max_retries = 0

[analytics]
enabled = false

[otel]
exporter = "none"
`;

/**
 * Codex CLI (`@openai/codex`): `codex exec --json … -- <prompt>`, run through the package's Node
 * launcher, which needs no install script: it starts the native binary of the optional platform
 * package (`@openai/codex-linux-x64`, …) and puts its bundled `rg` on PATH. Model `gpt-5.5`, a
 * model Codex knows (its metadata gives the freeform `apply_patch` tool).
 */
export const codexAgentCli: AgentCliDefinition = {
  name: 'codex',
  programName: 'codex',
  packageName: '@openai/codex',
  wire: 'openai-responses',
  dialect: {
    toolCall(action) {
      switch (action.kind) {
        case 'write':
          return { name: 'apply_patch', arguments: addFilePatch(action.path, action.content) };
        case 'edit':
          return {
            name: 'apply_patch',
            arguments: updateFilePatch(action.path, action.oldText, action.newText),
          };
        case 'shell':
          return { name: 'exec_command', arguments: { cmd: action.command } };
        case 'read':
          // Codex has no file-reading tool: it reads with its shell.
          return { name: 'exec_command', arguments: { cmd: `cat ${action.path}` } };
        case 'native':
          return { name: action.name, arguments: action.input };
      }
    },
  },
  resolve: (require) => nodeBinCommand(require, '@openai/codex', 'codex'),
  args(settings) {
    // Codex has no per-tool permissions, and its own sandbox (seccomp, landlock) is unavailable in
    // a container: the network namespace is the sandbox.
    if (settings.permissions !== 'all')
      throw new Error('Codex CLI runs take permissions "all": it has no per-tool allow list');
    return [
      'exec',
      ...(settings.resumeSessionId === undefined ? [] : ['resume', settings.resumeSessionId]),
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--',
      settings.prompt,
    ];
  },
  async writeSettings(home, _settings, baseURL) {
    await mkdir(join(home, '.codex'), { recursive: true });
    await mkdir(join(home, '.tmp'), { recursive: true });
    await writeFile(join(home, '.codex', 'config.toml'), codexConfig(baseURL));
  },
  // Codex will not put its helper binaries (the PATH aliases of apply_patch) under the temporary
  // directory, where the run's own directory is: a TMPDIR of the run's own moves that elsewhere.
  env: ({ home }) => ({
    CODEX_HOME: join(home, '.codex'),
    OPENAI_API_KEY: 'dummy',
    TMPDIR: join(home, '.tmp'),
  }),
  sessionIdOf: (stdout) => /"thread_id":"([^"]+)"/.exec(stdout)?.[1],
};
