import { readFileSync } from 'node:fs';
import { isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { convertClaudeCodeResult } from './convert-claude-code-result.js';

const NOW = new Date('2026-11-22T09:00:00.000Z');

describe('convertClaudeCodeResult', () => {
  it('converts the --output-format json result', () => {
    const json: unknown = JSON.parse(
      readFileSync(new URL('./__fixtures__/result.json', import.meta.url), 'utf8'),
    );
    const events = convertClaudeCodeResult(json, () => NOW);
    expect(events.every(isAgentOutput)).toBe(true);
    expect(events).toMatchObject([
      { type: 'usage', usage: { inputTokens: 96437, outputTokens: 270 }, timestamp: NOW.toISOString() },
      { type: 'unknown', raw: { type: 'result', subtype: 'success', fields: { duration_api_ms: 278 } } },
      {
        type: 'session_result',
        providerMetadata: { 'claude-code': { stopReason: 'end_turn' } },
        sessionId: 'c0f65c11-718d-4ea8-9d28-5dd0232cf448',
        isError: false,
        subtype: 'success',
        turns: 5,
        durationMs: 537,
        costUsd: 0.488935,
        result: expect.stringMatching(/^Done\. I created hello\.txt/),
      },
    ]);
  });

  it('keeps anything but a result object as an unknown event', () => {
    expect(convertClaudeCodeResult('oops', () => NOW)).toEqual([
      { type: 'unknown', timestamp: NOW.toISOString(), source: 'claude-code', raw: 'oops' },
    ]);
    expect(convertClaudeCodeResult(undefined, () => NOW)).toMatchObject([{ type: 'unknown', raw: null }]);
  });
});
