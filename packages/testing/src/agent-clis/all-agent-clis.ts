import type { AgentCliDefinition } from './agent-cli-definition.js';
import { claudeCodeAgentCli } from './claude-code-agent-cli.js';
import { codexAgentCli } from './codex-agent-cli.js';
import { geminiCliAgentCli } from './gemini-cli-agent-cli.js';
import { qwenCodeAgentCli } from './qwen-code-agent-cli.js';

/** Every CLI the harness drives, by fixture directory name (`claude-code`, `gemini-cli`, `codex`, `qwen-code`). */
export const agentClis: Record<string, AgentCliDefinition> = {
  [claudeCodeAgentCli.name]: claudeCodeAgentCli,
  [geminiCliAgentCli.name]: geminiCliAgentCli,
  [codexAgentCli.name]: codexAgentCli,
  [qwenCodeAgentCli.name]: qwenCodeAgentCli,
};
