export { cairnErrorThrownBy } from './cairn-error-thrown-by.js';
export { createGate, type Gate } from './gate.js';
export type { MockProvider, MockServerProvider } from './mock-servers/mock-provider-protocol.js';
export {
  type MockProviderServer,
  type MockProviderServerOptions,
  type MockTurns,
  startMockProviderServer,
} from './mock-servers/start-mock-provider-server.js';
export {
  type NodeScriptOutput,
  type NodeScriptRun,
  type RunNodeScriptOptions,
  runNodeScript,
} from './processes/run-node-script.js';
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
