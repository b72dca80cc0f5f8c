import { CairnError } from '@cairn/core';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentCliName } from './agent-executor-options.js';
import { claudeCodeCli } from './claude-code-cli.js';
import { codexCli } from './codex-cli.js';
import { geminiCli } from './gemini-cli.js';
import { qwenCodeCli } from './qwen-code-cli.js';

const BUILT_IN: Readonly<Record<AgentCliName, AgentCliDefinition>> = {
  'claude-code': claudeCodeCli,
  'gemini-cli': geminiCli,
  codex: codexCli,
  'qwen-code': qwenCodeCli,
};

/** The definition of a built-in CLI by name, or the given one; `INVALID_ARGUMENT` otherwise. */
export function resolveAgentCli(agent: AgentCliName | AgentCliDefinition): AgentCliDefinition {
  if (typeof agent === 'string') {
    const cli = Object.hasOwn(BUILT_IN, agent) ? BUILT_IN[agent] : undefined;
    if (cli !== undefined) return cli;
    throw new CairnError(
      'INVALID_ARGUMENT',
      `Unknown agent ${JSON.stringify(agent)}: use "claude-code", "gemini-cli", "codex", "qwen-code" or an AgentCliDefinition`,
    );
  }
  const valid =
    typeof agent === 'object' &&
    agent !== null &&
    typeof agent.name === 'string' &&
    typeof agent.provider === 'string' &&
    agent.provider !== '' &&
    typeof agent.defaultCommand === 'string' &&
    typeof agent.buildArgs === 'function' &&
    typeof agent.createConverter === 'function';
  if (!valid)
    throw new CairnError(
      'INVALID_ARGUMENT',
      'agent must be "claude-code", "gemini-cli", "codex", "qwen-code" or an AgentCliDefinition',
    );
  return agent;
}
