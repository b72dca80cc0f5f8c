export * from './claude-code/index.js';
export * from './codex/index.js';
export * from './gemini-cli/index.js';
export * from './qwen-code/index.js';
