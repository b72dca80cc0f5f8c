import { cairnToolProcessors } from './cairn-tool-processors.js';
import { claudeCodeToolProcessors } from './claude-code-tool-processors.js';
import { codexToolProcessors } from './codex-tool-processors.js';
import { geminiCliToolProcessors } from './gemini-cli-tool-processors.js';
import { qwenCodeToolProcessors } from './qwen-code-tool-processors.js';
import type { ToolProcessor } from './tool-call-view.js';
import { ToolProcessorRegistry } from './tool-processor-registry.js';

export interface ToolProcessorRegistryOptions {
  /** Start with the processors of the built-in agent CLIs' tools and Cairn's (default true). */
  builtIns?: boolean;
  /** Registered after the built-ins, so they override them by tool name. */
  processors?: ToolProcessor[];
}

export function createToolProcessorRegistry(
  options: ToolProcessorRegistryOptions = {},
): ToolProcessorRegistry {
  const { builtIns = true, processors = [] } = options;
  const base = builtIns
    ? [
        ...claudeCodeToolProcessors,
        ...geminiCliToolProcessors,
        ...codexToolProcessors,
        ...qwenCodeToolProcessors,
        ...cairnToolProcessors,
      ]
    : [];
  return new ToolProcessorRegistry([...base, ...processors]);
}
