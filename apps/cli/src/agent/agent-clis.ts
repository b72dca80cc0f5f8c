import {
  type AgentCliDefinition,
  claudeCodeCli,
  codexCli,
  geminiCli,
  qwenCodeCli,
} from '@cairn/agent-executor';

/** The agent CLIs `cairn agent` runs, by their command name. */
export type AgentChoice = 'claude' | 'gemini' | 'codex' | 'qwen';

export interface AgentCli {
  /** How the executor runs it and reads its output. */
  definition: AgentCliDefinition;
  /** The variable naming another executable. */
  commandEnv: string;
  /** How to install it. */
  install: string;
}

export const AGENT_CLIS: Readonly<Record<AgentChoice, AgentCli>> = {
  claude: {
    definition: claudeCodeCli,
    commandEnv: 'CAIRN_CLAUDE_COMMAND',
    install: 'npm i -g @anthropic-ai/claude-code',
  },
  gemini: {
    definition: geminiCli,
    commandEnv: 'CAIRN_GEMINI_COMMAND',
    install: 'npm i -g @google/gemini-cli',
  },
  codex: {
    definition: codexCli,
    commandEnv: 'CAIRN_CODEX_COMMAND',
    install: 'npm i -g @openai/codex',
  },
  qwen: {
    definition: qwenCodeCli,
    commandEnv: 'CAIRN_QWEN_COMMAND',
    install: 'npm i -g @qwen-code/qwen-code',
  },
};

/** True for the names `cairn agent` accepts. */
export function isAgentChoice(name: string): name is AgentChoice {
  return Object.hasOwn(AGENT_CLIS, name);
}

/** The executable: the one given, else the environment's, else the CLI's own name. */
export function agentCommand(cli: AgentCli, given: string | undefined, env: NodeJS.ProcessEnv): string {
  const fromEnv = env[cli.commandEnv];
  return given ?? (fromEnv === undefined || fromEnv === '' ? cli.definition.defaultCommand : fromEnv);
}
