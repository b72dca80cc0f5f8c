export { cairnToolProcessors } from './cairn-tool-processors.js';
export { claudeCodeToolProcessors } from './claude-code-tool-processors.js';
export { codexToolProcessors } from './codex-tool-processors.js';
export {
  createToolProcessorRegistry,
  type ToolProcessorRegistryOptions,
} from './create-tool-processor-registry.js';
export { geminiCliToolProcessors } from './gemini-cli-tool-processors.js';
export { qwenCodeToolProcessors } from './qwen-code-tool-processors.js';
export type { ToolCallView, ToolDescription, ToolProcessor } from './tool-call-view.js';
export { ToolProcessorRegistry } from './tool-processor-registry.js';
