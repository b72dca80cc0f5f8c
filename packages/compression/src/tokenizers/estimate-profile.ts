import { assertOneOf } from './assert-one-of.js';
import type { MediaTokenRules } from './media-part-tokens.js';

/** Whose tokenizer an estimate imitates. */
export type EstimateFamily = 'anthropic' | 'gemini' | 'generic';

export const ESTIMATE_FAMILIES: readonly EstimateFamily[] = ['anthropic', 'gemini', 'generic'];

/**
 * What each character class costs, in tokens, in `estimateTextTokens`, plus the framing a request
 * adds around the text. Fractions are averages: a message's total is rounded up once.
 */
export interface EstimateProfile {
  /** A run of ASCII letters: a word, or one hump of a camelCase name. */
  readonly word: number;
  /** Each letter of a run past the `LONG_WORD_LETTERS`th: long identifiers, hashes and base64 split up. */
  readonly longWordLetter: number;
  /** How many consecutive digits share a token at most (3 in OpenAI-style BPE, 1 when each digit is one). */
  readonly digitsPerGroup: number;
  readonly digitGroup: number;
  /** Each ASCII punctuation or symbol character (JSON and code are dense in them). */
  readonly punctuation: number;
  /** A run of whitespace other than a single space: line breaks and indentation. */
  readonly whitespaceBreak: number;
  /** Each CJK character: Han, kana, Hangul, CJK and full-width punctuation. */
  readonly cjkCharacter: number;
  /** Each UTF-8 byte of other non-ASCII text (accented Latin, Cyrillic, Greek, Arabic, …). */
  readonly otherUtf8Byte: number;
  /** Each character outside the Basic Multilingual Plane: emoji, rare CJK. */
  readonly astralCharacter: number;
  /** Framing of every message (role markers, turn separators). */
  readonly message: number;
  /** Framing of each tool call, on top of its name and arguments. */
  readonly toolCall: number;
  /** Framing of the request as a whole (priming the reply). */
  readonly request: number;
  /** Whose published rules price images and documents (`estimateMediaPartTokens`). */
  readonly media: MediaTokenRules;
}

/** Letter runs up to this length are one token; BPE vocabularies hold most words whole. */
export const LONG_WORD_LETTERS = 8;

// `generic` is a least-squares fit of these classes (rounded) to `o200k_base`, a modern 200k-entry
// BPE, over package READMEs, JS and .d.ts sources, package.json files (indented and compact) and
// TypeScript's diagnostic messages in Chinese, Japanese, Korean, Russian, German and French. In
// total it is within 4% of o200k per language and within 7% on prose, code and JSON; a single 3 KB
// chunk can be 35% off (camelCase-heavy declarations, URLs). Emoji cost about 2 tokens each.
// No local tokenizer exists for Claude or Gemini, so their profiles shift that fit by what is
// published about them; calibration then learns the remaining ratio per conversation:
// - anthropic: comparisons report Claude's tokenizer needing about 16% more tokens than GPT-4o on
//   English and up to 30% more on code; this profile charges 18% more than o200k on prose, 14–24%
//   more on code and JSON, and a little more than cl100k_base for CJK (~1 token per character)
//   and other non-ASCII text.
// - gemini: Gemini's 256k SentencePiece vocabulary is close to o200k on English and code, gives
//   every digit its own token, and is a little denser on CJK.
// Framing: Anthropic renders each tool call with tags around every parameter and each turn with
// role markers; Gemini wraps turns in start/end-of-turn markers and each functionCall in a part.
// Images and documents: by the provider's published rules (`media-part-tokens.ts`); `generic`
// uses Anthropic's, the costliest per image of the three, so an unknown model's budget is not overrun.
// Ids are not counted in any family: the API assigns them and they are not rendered to the model.
export const ESTIMATE_PROFILES: Readonly<Record<EstimateFamily, EstimateProfile>> = {
  generic: {
    word: 0.92,
    longWordLetter: 0.45,
    digitsPerGroup: 3,
    digitGroup: 1.25,
    punctuation: 0.44,
    whitespaceBreak: 2.1,
    cjkCharacter: 0.7,
    otherUtf8Byte: 0.12,
    astralCharacter: 2,
    message: 4,
    toolCall: 3,
    request: 3,
    media: 'anthropic',
  },
  anthropic: {
    word: 1.08,
    longWordLetter: 0.6,
    digitsPerGroup: 3,
    digitGroup: 1.3,
    punctuation: 0.6,
    whitespaceBreak: 2.4,
    cjkCharacter: 1,
    otherUtf8Byte: 0.2,
    astralCharacter: 2.5,
    message: 5,
    toolCall: 8,
    request: 3,
    media: 'anthropic',
  },
  gemini: {
    word: 0.95,
    longWordLetter: 0.45,
    digitsPerGroup: 1,
    digitGroup: 1,
    punctuation: 0.45,
    whitespaceBreak: 2,
    cjkCharacter: 0.6,
    otherUtf8Byte: 0.12,
    astralCharacter: 2,
    message: 5,
    toolCall: 5,
    request: 3,
    media: 'gemini',
  },
};

/** Throws `INVALID_ARGUMENT` unless `family` is one of `ESTIMATE_FAMILIES`. */
export function assertEstimateFamily(family: unknown): asserts family is EstimateFamily {
  assertOneOf('family', ESTIMATE_FAMILIES, family);
}
