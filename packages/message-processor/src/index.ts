export { type AgentSessionInfo, agentSessionMetadata, readAgentSession } from './agent-session-metadata.js';
export {
  createDisplayProjector,
  type DisplayOptions,
  type DisplayProjector,
} from './create-display-projector.js';
export { createMessageProcessor } from './create-message-processor.js';
export { DisplayView } from './display-view.js';
export { LiveDisplay } from './live-display.js';
export {
  DEFAULT_PENDING_TIMEOUT_MS,
  type MessageFields,
  type MessageProcessor,
  type MessageProcessorOptions,
} from './message-processor-options.js';
export { toDisplayMessages } from './to-display-messages.js';
export * from './tool-processors/index.js';
