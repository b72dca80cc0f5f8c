import type { AgentRunError } from '@cairn/agent-executor';
import { CairnError } from '@cairn/core';
import { cliFailure } from '../cli-error.js';
import type { AgentCli } from './agent-clis.js';

/**
 * The failure of a run as a `CairnError` for `formatCliError` and `exitCodeFor`. A missing
 * executable (the executor's documented "<command> not found: …") becomes one line saying how to
 * install the CLI or point Cairn at it.
 */
export function agentRunFailure(error: AgentRunError, cli: AgentCli, command: string): CairnError {
  if (error.code === 'AGENT_FAILED' && error.message.startsWith(`${command} not found`)) {
    // A bare name was looked up on PATH; a path was not there.
    const where = command.includes('/') || command.includes('\\') ? '' : ' on PATH';
    return cliFailure(
      'AGENT_FAILED',
      `${command} was not found${where}`,
      `install ${cli.definition.name} (${cli.install}) or set ${cli.commandEnv}`,
    );
  }
  return new CairnError(error.code, error.message);
}
