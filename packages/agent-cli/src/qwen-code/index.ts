export { convertQwenCodeStream } from './convert-qwen-code-stream.js';
export {
  createQwenCodeConverter,
  type QwenCodeConverter,
  type QwenCodeConverterOptions,
} from './create-qwen-code-converter.js';
