export { createOtelTelemetry, OTEL_SCOPE_NAME, type OtelTelemetryOptions } from './create-otel-telemetry.js';
export { type GenAiMessage, type GenAiPart, genAiInput, genAiOutput } from './gen-ai-messages.js';
export { genAiProviderName } from './gen-ai-provider-name.js';
