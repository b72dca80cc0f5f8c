import { CairnError } from '@cairn/core';
import type { CalibratedTokenizer } from './calibrated-tokenizer.js';
import { createCountingTokenizer } from './create-counting-tokenizer.js';
import {
  assertOpenAIEncoding,
  type OpenAIEncodingName,
  openAIEncodingForModel,
  openAITextCounter,
} from './openai-encoding.js';
import { countOpenAIMessageTokens, OPENAI_REPLY_PRIMING_TOKENS } from './openai-message-tokens.js';

/** An OpenAI model id (its encoding is looked up) or the encoding itself. */
export type OpenAITokenizerOptions = { model: string } | { encoding: OpenAIEncodingName };

function encodingOf(options: OpenAITokenizerOptions): OpenAIEncodingName {
  const { model, encoding } = (options ?? {}) as { model?: unknown; encoding?: unknown };
  if (encoding !== undefined) {
    assertOpenAIEncoding(encoding);
    return encoding;
  }
  if (typeof model === 'string' && model !== '') return openAIEncodingForModel(model);
  throw new CairnError('INVALID_ARGUMENT', 'createOpenAITokenizer needs { model } or { encoding }', {
    details: { model },
  });
}

/**
 * Exact token counts for OpenAI models, with gpt-tokenizer's BPE and OpenAI's chat framing (see
 * `countOpenAIMessageTokens`). Calibration only adds what the provider counts beyond the messages
 * (tool schemas): the scale stays 1.
 */
export function createOpenAITokenizer(options: OpenAITokenizerOptions): CalibratedTokenizer {
  const encoding = encodingOf(options);
  const countText = openAITextCounter(encoding);
  return createCountingTokenizer({
    name: encoding,
    countText,
    countMessage: (message) => countOpenAIMessageTokens(message, countText),
    requestTokens: OPENAI_REPLY_PRIMING_TOKENS,
    learnsScale: false,
  });
}
