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
export {
  ANTHROPIC_MAX_EDGE,
  ANTHROPIC_MAX_IMAGE_TOKENS,
  ANTHROPIC_PIXELS_PER_TOKEN,
  anthropicImageTokens,
  estimateMediaPartTokens,
  GEMINI_IMAGE_TOKENS,
  geminiImageTokens,
  IMAGE_PIXELS_PER_BYTE,
  MEDIA_TOKEN_RULES,
  type MediaTokenRules,
  mediaPartByteSize,
  OPENAI_BASE_IMAGE_TOKENS,
  OPENAI_TILE_TOKENS,
  openAIImageTokens,
  PDF_BYTES_PER_PAGE,
  PDF_PAGE_TOKENS,
  pdfPageCount,
  TEXT_BYTES_PER_TOKEN,
  UNKNOWN_IMAGE_SIDE,
} from './media-part-tokens.js';
export { OPENAI_ENCODINGS, type OpenAIEncodingName, openAIEncodingForModel } from './openai-encoding.js';
export { countOpenAIMessageTokens } from './openai-message-tokens.js';
