import { CairnError, type ProviderMetadata } from '@cairn/core';
import { GEMINI_METADATA_KEY } from './gemini-provider-metadata.js';

/** What a request may pass in `providerOptions.gemini`. */
export interface GeminiProviderOptions {
  /** Gemini's `generationConfig.thinkingConfig`, such as `{ includeThoughts: true, thinkingBudget: 1024 }`. */
  thinkingConfig?: Record<string, unknown>;
  /** Gemini's `safetySettings`: `[{ category, threshold }]`. */
  safetySettings?: Array<{ category: string; threshold: string }>;
  /**
   * Where a tool's images and documents go: `nested` in its `functionResponse` (Gemini 3's
   * multimodal function responses) or `beside` it in the same turn. Default: `nested` for model
   * ids starting `gemini-3` or later, `beside` otherwise (an alias such as `gemini-flash-latest`
   * says no version, so set this for one that points at Gemini 3).
   */
  functionResponseMedia?: 'nested' | 'beside';
}

/** Reads and checks `providerOptions.gemini`; other namespaces are other adapters' business. */
export function readGeminiProviderOptions(
  providerOptions: ProviderMetadata | undefined,
): GeminiProviderOptions {
  const options = providerOptions?.[GEMINI_METADATA_KEY];
  if (options === undefined) return {};
  const { thinkingConfig, safetySettings, functionResponseMedia, ...unknown } = options;
  const unknownKey = Object.keys(unknown)[0];
  // A misspelt option would otherwise be ignored without a word.
  if (unknownKey !== undefined) {
    throw invalidOption(
      `unknown option ${JSON.stringify(unknownKey)} (known: thinkingConfig, safetySettings, functionResponseMedia)`,
    );
  }
  const read: GeminiProviderOptions = {};
  if (thinkingConfig !== undefined) {
    if (!isRecord(thinkingConfig)) throw invalidOption('thinkingConfig must be an object');
    read.thinkingConfig = thinkingConfig;
  }
  if (safetySettings !== undefined) {
    if (!Array.isArray(safetySettings) || !safetySettings.every(isSafetySetting)) {
      throw invalidOption('safetySettings must be an array of { category, threshold } strings');
    }
    read.safetySettings = safetySettings;
  }
  if (functionResponseMedia !== undefined) {
    if (functionResponseMedia !== 'nested' && functionResponseMedia !== 'beside') {
      throw invalidOption('functionResponseMedia must be "nested" or "beside"');
    }
    read.functionResponseMedia = functionResponseMedia;
  }
  return read;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSafetySetting(value: unknown): value is { category: string; threshold: string } {
  return isRecord(value) && typeof value.category === 'string' && typeof value.threshold === 'string';
}

function invalidOption(problem: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', `providerOptions.gemini: ${problem}`, {
    details: { provider: 'gemini' },
  });
}
