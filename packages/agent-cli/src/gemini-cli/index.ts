export { convertGeminiCliResult, type GeminiCliResultOptions } from './convert-gemini-cli-result.js';
export { convertGeminiCliStream } from './convert-gemini-cli-stream.js';
export {
  createGeminiCliConverter,
  type GeminiCliConverter,
  type GeminiCliConverterOptions,
} from './create-gemini-cli-converter.js';
export type { Clock } from './gemini-cli-event-factory.js';
