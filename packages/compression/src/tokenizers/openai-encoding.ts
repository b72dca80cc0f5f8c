import { createRequire } from 'node:module';
import type { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { assertOneOf } from './assert-one-of.js';
import { bareModelId } from './bare-model-id.js';

/** The encodings OpenAI's chat models use. */
export type OpenAIEncodingName = 'o200k_base' | 'cl100k_base';

export const OPENAI_ENCODINGS: readonly OpenAIEncodingName[] = ['o200k_base', 'cl100k_base'];

// Models from before gpt-4o; gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series and later use o200k_base.
const CL100K_MODEL = /^(gpt-4(?!o|\.)|gpt-3\.5|text-embedding-(3|ada-002))/;

/** OpenAI model ids, as `createTokenizer` recognises them. */
export const OPENAI_MODEL = /^(gpt-|chatgpt-|o\d|codex-|text-embedding-)/;

/**
 * The encoding of an OpenAI model id (case-insensitive, `openai/` prefix allowed): `cl100k_base` for
 * gpt-4 (not 4o/4.1/4.5), gpt-3.5 and the embeddings of that generation; `o200k_base` for every
 * other, as for every model OpenAI released since gpt-4o (gpt-oss's o200k_harmony only adds
 * special tokens to it).
 */
export function openAIEncodingForModel(model: string): OpenAIEncodingName {
  return CL100K_MODEL.test(bareModelId(model)) ? 'cl100k_base' : 'o200k_base';
}

export function assertOpenAIEncoding(encoding: unknown): asserts encoding is OpenAIEncodingName {
  assertOneOf('encoding', OPENAI_ENCODINGS, encoding);
}

// Loading an encoding's ranks takes 100–300 ms, so each is loaded (synchronously, through
// gpt-tokenizer's CommonJS build) on first use, not when this package is imported.
const require = createRequire(import.meta.url);
const loaded = new Map<OpenAIEncodingName, typeof countTokens>();
// Special-token text in a message (`<|endoftext|>`) is ordinary text to the API, not a control token.
const SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Exact token count of text under `encoding`, as the OpenAI API counts message text. */
export function openAITextCounter(encoding: OpenAIEncodingName): (text: string) => number {
  let count = loaded.get(encoding);
  if (count === undefined) {
    count = (require(`gpt-tokenizer/encoding/${encoding}`) as { countTokens: typeof countTokens })
      .countTokens;
    loaded.set(encoding, count);
  }
  const countTokensOf = count;
  return (text) => countTokensOf(text, SPECIAL_TOKENS_AS_TEXT);
}
