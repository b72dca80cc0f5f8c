export { CODEX_TOOL_NAMES } from './codex-tool-names.js';
export { convertCodexStream } from './convert-codex-stream.js';
export {
  type CodexConverter,
  type CodexConverterOptions,
  createCodexConverter,
} from './create-codex-converter.js';
