import { isRecord } from '../is-record.js';
import { startMockProviderServer } from '../mock-servers/start-mock-provider-server.js';
import type { RecordedRequest, ScriptTurn } from '../script-turn.js';
import {
  type AgentCliScenario,
  type AgentCliToolDialect,
  agentCliScenarios,
  type ScenarioTurnContext,
} from './agent-cli-scenarios.js';
import { readScenarioPosition } from './read-scenario-position.js';
import { startUnixSocketBridge } from './unix-socket-bridge.js';

export interface AgentCliStandInOptions {
  /** The vendor API the CLI calls. */
  wire: ScenarioTurnContext['wire'];
  /** How the CLI names tools. */
  dialect: AgentCliToolDialect;
  /** The CLI's working directory: scenario paths are made absolute against it. */
  cwd: string;
  /** Default `TaskCreate`, Claude Code's default task tool. */
  todoTool?: ScenarioTurnContext['todoTool'];
  /** Default `agentCliScenarios`; pass a spread of it plus your own to extend. */
  scenarios?: Record<string, AgentCliScenario>;
}

/** A scripted vendor API on loopback TCP, also reachable through a Unix socket (for namespaces). */
export interface AgentCliStandIn {
  readonly origin: string;
  /** Where the API's paths start (`<origin>/v1` for OpenAI's APIs). */
  readonly baseURL: string;
  readonly port: number;
  readonly socketPath: string;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

// Gemini CLI with model `auto` asks a flash-lite model to rate the prompt before each turn.
const GEMINI_ROUTER_ANSWER: ScriptTurn = {
  text: JSON.stringify({ complexity_reasoning: 'A scripted task (mock).', complexity_score: 30 }),
};
// Anything else without a marker (a title or quota probe): a short harmless answer.
const PLAIN_ANSWER: ScriptTurn = { text: 'OK.' };

// The last entry of a Messages API `messages` or a Gemini `contents` list, as JSON.
function lastMessageOf(body: unknown): string {
  if (!isRecord(body)) return '';
  const list = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.contents)
      ? body.contents
      : [];
  return list.length === 0 ? '' : JSON.stringify(list.at(-1));
}

/**
 * Starts the loopback stand-in of one vendor API for a real agent CLI: each request's last
 * `[scenario:NAME]` marker picks the script, the model messages after it give the turn, and
 * requests repeating a turn (the CLI's retries) count as further attempts of it.
 */
export async function startAgentCliStandIn(options: AgentCliStandInOptions): Promise<AgentCliStandIn> {
  const scenarios = options.scenarios ?? agentCliScenarios;
  const attempts = new Map<string, number>();
  const turns = (request: RecordedRequest): ScriptTurn => {
    // The router request repeats the prompt (marker included) but is Gemini's only non-streaming one.
    if (options.wire === 'gemini' && !request.stream) return GEMINI_ROUTER_ANSWER;
    const position = readScenarioPosition(request.body);
    if (position === undefined) return PLAIN_ANSWER;
    const scenario = scenarios[position.scenario];
    if (scenario === undefined) throw new Error(`agent CLI stand-in: no scenario "${position.scenario}"`);
    const key = `${position.scenario}#${position.turn}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    const turn = scenario.turn({
      turn: position.turn,
      attempt,
      messageCount: position.messageCount,
      wire: options.wire,
      todoTool: options.todoTool ?? 'TaskCreate',
      lastMessage: lastMessageOf(request.body),
    });
    if (turn === undefined) {
      throw new Error(`agent CLI stand-in: scenario "${position.scenario}" has no turn ${position.turn}`);
    }
    const { actions = [], ...rest } = turn;
    if (actions.length === 0) return rest;
    return { ...rest, toolCalls: actions.map((action) => options.dialect.toolCall(action, options.cwd)) };
  };
  // The Anthropic wire keeps the mock's request rules on: the real API takes what Claude Code sends
  // (its `role: "system"` message is a mid-conversation system message, Opus 4.8 and later).
  const server = await startMockProviderServer({
    provider: options.wire,
    turns,
    validateRequests: options.wire === 'anthropic',
  });
  const port = Number(new URL(server.origin).port);
  const bridge = await startUnixSocketBridge(port);
  return {
    origin: server.origin,
    baseURL: server.baseURL,
    port,
    socketPath: bridge.socketPath,
    requests: server.requests,
    close: async () => {
      await bridge.close();
      await server.close();
    },
  };
}
