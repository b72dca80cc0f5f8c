import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import { filePathToolDialect } from './file-path-tool-dialect.js';

// The npm package's own `bin/claude.exe` is a stub until its postinstall copies the native binary
// over it, and pnpm runs no install scripts: the binary is taken from the platform package instead.
function platformPackage(): string {
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header?.glibcVersionRuntime;
  const musl = process.platform === 'linux' && glibc === undefined ? '-musl' : '';
  return `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl}`;
}

/** Claude Code (`@anthropic-ai/claude-code`): `claude -p … --output-format stream-json --verbose`. */
export const claudeCodeAgentCli: AgentCliDefinition = {
  name: 'claude-code',
  programName: 'claude',
  packageName: '@anthropic-ai/claude-code',
  wire: 'anthropic',
  dialect: filePathToolDialect(
    { write: 'Write', edit: 'Edit', read: 'Read', shell: 'Bash' },
    { describeShell: true },
  ),
  resolve(require) {
    const manifestPath = require.resolve('@anthropic-ai/claude-code/package.json');
    const { version } = require(manifestPath) as { version: string };
    const binaryPackage = platformPackage();
    // The platform package is a dependency of the wrapper, so it resolves from there.
    const binaryDirectory = dirname(createRequire(manifestPath).resolve(`${binaryPackage}/package.json`));
    return {
      command: join(binaryDirectory, process.platform === 'win32' ? 'claude.exe' : 'claude'),
      args: [],
      version,
    };
  },
  args(settings) {
    const permissions =
      settings.permissions === 'all'
        ? ['--dangerously-skip-permissions']
        : settings.permissions.length > 0
          ? ['--allowedTools', settings.permissions.join(',')]
          : [];
    const resume = settings.resumeSessionId === undefined ? [] : ['--resume', settings.resumeSessionId];
    return ['-p', settings.prompt, '--output-format', 'stream-json', '--verbose', ...permissions, ...resume];
  },
  async writeSettings(home, settings) {
    const allow = settings.permissions === 'all' ? [] : settings.permissions;
    await mkdir(join(home, '.claude'), { recursive: true });
    await writeFile(
      join(home, '.claude', 'settings.json'),
      `${JSON.stringify({ permissions: { allow } }, null, 2)}\n`,
    );
  },
};
