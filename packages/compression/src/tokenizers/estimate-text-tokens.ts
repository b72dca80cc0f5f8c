import { type EstimateProfile, LONG_WORD_LETTERS } from './estimate-profile.js';

const isCjk = (code: number): boolean =>
  (code >= 0x1100 && code <= 0x11ff) || // Hangul Jamo
  (code >= 0x2e80 && code <= 0x9fff) || // radicals, CJK punctuation, kana, Han (incl. extension A)
  (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
  (code >= 0xf900 && code <= 0xfaff) || // compatibility ideographs
  (code >= 0xff00 && code <= 0xffef); // full-width and half-width forms

const wordTokens = (letters: number, profile: EstimateProfile): number =>
  profile.word + Math.max(0, letters - LONG_WORD_LETTERS) * profile.longWordLetter;

const digitTokens = (digits: number, profile: EstimateProfile): number =>
  Math.ceil(digits / profile.digitsPerGroup) * profile.digitGroup;

/**
 * Estimated tokens of `text` under `profile`, unrounded: one pass over the UTF-16 code units that
 * prices runs of letters, digits and whitespace and every other character by its class (see
 * `EstimateProfile`). Never negative, never NaN, for any string (lone surrogates included).
 */
export function estimateTextTokens(text: string, profile: EstimateProfile): number {
  let tokens = 0;
  let letters = 0;
  let digits = 0;
  let spaces = 0;
  let spacesBreakLine = false;
  let previousIsLower = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const isLower = code >= 97 && code <= 122;
    const isUpper = code >= 65 && code <= 90;
    const isDigit = code >= 48 && code <= 57;
    const isSpace = code === 32 || code === 9 || code === 10 || code === 13;
    // A letter run ends at a non-letter or at a camelCase hump, where BPE splits too.
    if (letters > 0 && (!(isLower || isUpper) || (isUpper && previousIsLower))) {
      tokens += wordTokens(letters, profile);
      letters = 0;
    }
    if (digits > 0 && !isDigit) {
      tokens += digitTokens(digits, profile);
      digits = 0;
    }
    // A single space merges into the next word's token; other whitespace runs are tokens of their own.
    if (spaces > 0 && !isSpace) {
      if (spaces > 1 || spacesBreakLine) tokens += profile.whitespaceBreak;
      spaces = 0;
      spacesBreakLine = false;
    }
    previousIsLower = isLower;
    if (isLower || isUpper) letters++;
    else if (isDigit) digits++;
    else if (isSpace) {
      spaces++;
      if (code !== 32) spacesBreakLine = true;
    } else if (code < 0x80) tokens += profile.punctuation;
    else if (isCjk(code)) tokens += profile.cjkCharacter;
    else if (code >= 0xd800 && code <= 0xdbff) tokens += profile.astralCharacter;
    // A low surrogate was paid for with its high half.
    else if (code < 0xdc00 || code > 0xdfff) tokens += (code < 0x800 ? 2 : 3) * profile.otherUtf8Byte;
  }
  if (letters > 0) tokens += wordTokens(letters, profile);
  if (digits > 0) tokens += digitTokens(digits, profile);
  if (spaces > 1 || spacesBreakLine) tokens += profile.whitespaceBreak;
  return tokens;
}
