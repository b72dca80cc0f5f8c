import { readFileSync } from 'node:fs';
import { isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { convertGeminiCliResult } from './convert-gemini-cli-result.js';

const RESULT_TEXT = readFileSync(new URL('./__fixtures__/result.json', import.meta.url), 'utf8');
const NOW = '2030-01-01T00:00:00.000Z';
const now = () => new Date(NOW);

describe('convertGeminiCliResult', () => {
  it('converts the recorded json result', () => {
    const events = convertGeminiCliResult(JSON.parse(RESULT_TEXT), { now });
    expect(events.every(isAgentOutput)).toBe(true);
    const sessionId = 'b8eb1e0e-99b5-454d-b947-0d5ea2811cda';
    const response =
      'Done. I created hello.txt, changed its greeting to "Hello, acceptance tests!", listed the directory, and confirmed that does-not-exist.txt is missing.';
    // Summed over both models; thoughts count as output.
    const usage = {
      inputTokens: 882 + 59478,
      outputTokens: 25 + 305 + 30,
      totalTokens: 907 + 59813,
      cacheReadTokens: 0,
      reasoningTokens: 30,
    };
    expect(events).toEqual([
      { type: 'session_start', timestamp: NOW, provider: 'gemini-cli', sessionId },
      { type: 'text', timestamp: NOW, id: 'text-1', text: response },
      { type: 'usage', timestamp: NOW, usage },
      { type: 'session_result', timestamp: NOW, sessionId, isError: false, result: response, usage },
    ]);
  });

  it('accepts the JSON text too', () => {
    expect(convertGeminiCliResult(RESULT_TEXT, { now })).toEqual(
      convertGeminiCliResult(JSON.parse(RESULT_TEXT), { now }),
    );
  });

  it('reports an error result with the CLI message', () => {
    const events = convertGeminiCliResult(
      { session_id: 's', error: { type: 'ApiError', message: 'Quota exceeded', code: 429 } },
      { now },
    );
    expect(events).toContainEqual({
      type: 'error',
      timestamp: NOW,
      code: 'AGENT_FAILED',
      message: 'Quota exceeded',
      retryable: false,
      fatal: true,
    });
    expect(events.at(-1)).toMatchObject({ type: 'session_result', isError: true, sessionId: 's' });
  });

  it('never throws on malformed input', () => {
    expect(convertGeminiCliResult('{oops', { now })[0]).toMatchObject({
      type: 'error',
      raw: '{oops',
      fatal: false,
    });
    expect(convertGeminiCliResult(42, { now })).toEqual([
      { type: 'unknown', timestamp: NOW, source: 'gemini-cli', raw: 42 },
    ]);
    expect(convertGeminiCliResult(undefined, { now })[0]?.type).toBe('unknown');
    expect(
      convertGeminiCliResult({ stats: { models: { m: { tokens: 'x' } } }, extra: true }, { now }).map(
        (e) => e.type,
      ),
    ).toEqual(['session_start', 'session_result', 'unknown']);
  });
});
