export { cairnErrorThrownBy } from './cairn-error-thrown-by.js';
export { createGate, type Gate } from './gate.js';
export * from './mock-servers/anthropic-mock-exports.js';
export { geminiMockProtocol } from './mock-servers/gemini-mock-server.js';
export type {
  MockAnswerContext,
  MockErrorInput,
  MockProvider,
  MockProviderProtocol,
  MockRoute,
  MockServerProvider,
  MockStreamFrame,
  MockStreamFraming,
} from './mock-servers/mock-provider-protocol.js';
export { openAIMockProtocol } from './mock-servers/openai-mock-server.js';
export { openAIResponsesMockProtocol } from './mock-servers/openai-responses-mock-server.js';
export {
  MOCK_PROVIDER_PROTOCOLS,
  type MockProviderServer,
  type MockProviderServerOptions,
  type MockTurns,
  startMockProviderServer,
} from './mock-servers/start-mock-provider-server.js';
export { type ReplayServerOptions, startReplayServer } from './mock-servers/start-replay-server.js';
export { unusedLoopbackPort } from './network/unused-loopback-port.js';
export {
  type NodeScriptOutput,
  type NodeScriptRun,
  type RunNodeScriptOptions,
  runNodeScript,
} from './processes/run-node-script.js';
export { chunkString, type ResolvedScriptTurn, type ResolvedToolCall } from './resolve-script-turn.js';
export {
  MALFORMED_SSE_DATA,
  type RecordedRequest,
  type ScriptFault,
  type ScriptFinish,
  type ScriptToolCall,
  type ScriptTurn,
} from './script-turn.js';
export { ScriptedModel, type ScriptedModelOptions } from './scripted-model/scripted-model.js';
export { simulatedDelay } from './simulated-delay.js';
