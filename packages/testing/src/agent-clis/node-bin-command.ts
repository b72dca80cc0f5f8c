import { dirname, join } from 'node:path';
import type { AgentCliCommand } from './agent-cli-definition.js';

/** A CLI published as a Node script: its package's `bin` entry, run with this Node. */
export function nodeBinCommand(
  require: NodeJS.Require,
  packageName: string,
  binName: string,
): AgentCliCommand {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { version: string; bin: Record<string, string> };
  const bin = manifest.bin[binName];
  if (bin === undefined) throw new Error(`${packageName} has no bin named ${binName}`);
  return { command: process.execPath, args: [join(dirname(manifestPath), bin)], version: manifest.version };
}
