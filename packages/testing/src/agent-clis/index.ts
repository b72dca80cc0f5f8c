export type {
  AgentCliCommand,
  AgentCliDefinition,
  AgentCliPermissions,
  AgentCliRunSettings,
} from './agent-cli-definition.js';
export {
  type AgentCliFixturePlan,
  type AgentCliInterrupt,
  agentCliFixturePlans,
} from './agent-cli-fixture-plans.js';
export {
  type AgentCliScenario,
  type AgentCliToolDialect,
  agentCliScenarios,
  type ScenarioAction,
  type ScenarioTurn,
  type ScenarioTurnContext,
} from './agent-cli-scenarios.js';
export { agentClis } from './all-agent-clis.js';
export { claudeCodeAgentCli } from './claude-code-agent-cli.js';
export { codexAgentCli } from './codex-agent-cli.js';
export { type FilePathToolNames, filePathToolDialect } from './file-path-tool-dialect.js';
export { geminiCliAgentCli } from './gemini-cli-agent-cli.js';
export {
  type AgentCliIsolation,
  agentCliIsolation,
  ISOLATION_ENV,
  isolatedCommand,
} from './network-isolation.js';
export { agentCliOfflineEnvironment } from './offline-environment.js';
export { qwenCodeAgentCli } from './qwen-code-agent-cli.js';
export { readScenarioPosition, type ScenarioPosition } from './read-scenario-position.js';
export { recordedFixtureCwd, SCENARIO_WORK_DIRECTORY } from './recorded-fixture-cwd.js';
export {
  type AgentCliRun,
  type RunAgentCliScenarioOptions,
  resolveAgentCli,
  runAgentCliScenario,
} from './run-agent-cli-scenario.js';
export { scrubMachinePaths, WORKSPACE_PLACEHOLDER } from './scrub-machine-paths.js';
export {
  type AgentCliStandIn,
  type AgentCliStandInOptions,
  startAgentCliStandIn,
} from './start-agent-cli-stand-in.js';
