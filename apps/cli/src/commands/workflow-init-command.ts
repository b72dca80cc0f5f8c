import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { WORKFLOW_FORMAT_URL } from '@cairn/runtime';
import { shellArgument } from '../agent/shell-argument.js';
import { cliFailure } from '../cli-error.js';
import type { CliIO } from '../io.js';
import type { Colors } from '../render/colors.js';
import {
  DEFAULT_WORKFLOW_FILE,
  SAMPLE_WORKFLOW_INPUT,
  SAMPLE_WORKFLOW_YAML,
} from '../runs/sample-workflow.js';

// A directory (an existing one, or any path ending in a slash) gets the default file inside it, as `cp` does.
async function targetFile(cwd: string, file: string): Promise<string> {
  const isDirectory =
    /[\\/]$/.test(file) ||
    (await stat(resolve(cwd, file)).then(
      (stats) => stats.isDirectory(),
      () => false,
    ));
  return isDirectory ? join(file, DEFAULT_WORKFLOW_FILE) : file;
}

/**
 * `cairn workflow init [file]`: writes the sample workflow (default `workflow.yaml`, missing
 * directories created), never over an existing file unless `force`, and says what to run next.
 */
export async function initWorkflowFile(
  deps: { io: CliIO; colors: Colors },
  options: { file?: string; force?: boolean },
): Promise<number> {
  const { io, colors } = deps;
  const file = await targetFile(io.cwd, options.file ?? DEFAULT_WORKFLOW_FILE);
  // The sample's comments are half of it; JSON has none (YAML files are read the same way).
  if (extname(file).toLowerCase() === '.json') {
    const yamlFile = `${file.slice(0, -'.json'.length)}.yaml`;
    throw cliFailure(
      'INVALID_ARGUMENT',
      `${file}: the sample workflow is YAML, with comments, not JSON`,
      `name a .yaml file: cairn workflow init ${shellArgument(yamlFile)}`,
    );
  }
  const path = resolve(io.cwd, file);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, SAMPLE_WORKFLOW_YAML, { flag: options.force === true ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === 'EEXIST') {
      throw cliFailure(
        'INVALID_ARGUMENT',
        `${file} already exists`,
        'pass --force to replace it, or name another file: cairn workflow init FILE',
      );
    }
    throw cliFailure('INVALID_ARGUMENT', `cannot write ${file} (${code})`, 'choose a writable file path');
  }
  io.stdout.write(`wrote a sample workflow to ${file}\n`);
  io.stdout.write(`run it: cairn workflow run ${shellArgument(file)} -i "${SAMPLE_WORKFLOW_INPUT}"\n`);
  io.stdout.write(`${colors.dim(`then make it yours — the format: ${WORKFLOW_FORMAT_URL}`)}\n`);
  return 0;
}
