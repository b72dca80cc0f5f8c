import { CairnError, type ProviderMetadata } from '@cairn/core';
import { GEMINI_METADATA_KEY } from './gemini-provider-metadata.js';

/** What a request may pass in `providerOptions.gemini`. */
export interface GeminiProviderOptions {
  /** Gemini's `generationConfig.thinkingConfig`, such as `{ includeThoughts: true, thinkingBudget: 1024 }`. */
  thinkingConfig?: Record<string, unknown>;
  /** Gemini's `safetySettings`: `[{ category, threshold }]`. */
  safetySettings?: Array<{ category: string; threshold: string }>;
}

/** Reads and checks `providerOptions.gemini`; other namespaces are other adapters' business. */
export function readGeminiProviderOptions(
  providerOptions: ProviderMetadata | undefined,
): GeminiProviderOptions {
  const options = providerOptions?.[GEMINI_METADATA_KEY];
  if (options === undefined) return {};
  const { thinkingConfig, safetySettings, ...unknown } = options;
  const unknownKey = Object.keys(unknown)[0];
  // A misspelt option would otherwise be ignored without a word.
  if (unknownKey !== undefined) {
    throw invalidOption(
      `unknown option ${JSON.stringify(unknownKey)} (known: thinkingConfig, safetySettings)`,
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
