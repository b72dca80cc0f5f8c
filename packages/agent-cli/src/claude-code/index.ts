export { convertClaudeCodeResult } from './convert-claude-code-result.js';
export { convertClaudeCodeStream } from './convert-claude-code-stream.js';
export {
  type ClaudeCodeConverter,
  type ClaudeCodeConverterOptions,
  createClaudeCodeConverter,
} from './create-claude-code-converter.js';
