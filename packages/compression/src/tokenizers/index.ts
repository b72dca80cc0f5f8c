export type { CalibratedTokenizer } from './calibrated-tokenizer.js';
export {
  MAX_CALIBRATION_OBSERVATIONS,
  MAX_CALIBRATION_SCALE,
  MIN_CALIBRATION_SCALE,
} from './calibration-log.js';
export { type CountingTokenizerOptions, createCountingTokenizer } from './create-counting-tokenizer.js';
export { createEstimatingTokenizer, type EstimatingTokenizerOptions } from './create-estimating-tokenizer.js';
export { createOpenAITokenizer, type OpenAITokenizerOptions } from './create-openai-tokenizer.js';
export {
  createTokenizer,
  type TokenizerKind,
  type TokenizerModel,
  tokenizerKindOfModel,
} from './create-tokenizer.js';
export { estimateMessageTokens } from './estimate-message-tokens.js';
export {
  ESTIMATE_FAMILIES,
  ESTIMATE_PROFILES,
  type EstimateFamily,
  type EstimateProfile,
  LONG_WORD_LETTERS,
} from './estimate-profile.js';
export { estimateTextTokens } from './estimate-text-tokens.js';
export { OPENAI_ENCODINGS, type OpenAIEncodingName, openAIEncodingForModel } from './openai-encoding.js';
export { countOpenAIMessageTokens } from './openai-message-tokens.js';
