import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeCli } from './claude-code-cli.js';
import { geminiCli } from './gemini-cli.js';
import { createGeminiCliStderrConverter } from './stderr-retry-events.js';

const NOW = new Date('2026-11-26T11:57:00.000Z');

// Gemini CLI 0.61.0's real stderr in the apierr scenario (@cairn/agent-cli's fixtures/real): one 500
// retried to success, then 503 on every attempt until its 10 attempts are used up. Each retry line
// comes with the error's stack; the last attempt's line ("Attempt 10 failed: … Max attempts
// reached") is no retry.
const STDERR = readFileSync(
  new URL('../../agent-cli/fixtures/real/gemini-cli/apierr.stderr.txt', import.meta.url),
  'utf8',
);
const RETRIES = [
  { attempt: 1, status: 500 },
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) => ({ attempt, status: 503 })),
];

describe('createGeminiCliStderrConverter', () => {
  it("turns Gemini CLI's retry lines into retry events, whatever the chunking", () => {
    const expected = RETRIES.map((retry) => ({ type: 'retry', timestamp: NOW.toISOString(), ...retry }));
    expect(createGeminiCliStderrConverter(() => NOW).push(STDERR)).toEqual(expected);
    const converter = createGeminiCliStderrConverter(() => NOW);
    const bytes = Buffer.from(STDERR);
    const events = [];
    for (let at = 0; at < bytes.length; at += 13) events.push(...converter.push(bytes.subarray(at, at + 13)));
    expect(events).toEqual(expected);
  });

  it('reads a retry without an HTTP status (a network failure; not in the recordings)', () => {
    const line = 'Attempt 3 failed. Retrying with backoff... TypeError: fetch failed\n';
    expect(createGeminiCliStderrConverter(() => NOW).push(line)).toEqual([
      { type: 'retry', timestamp: NOW.toISOString(), attempt: 3 },
    ]);
  });

  it('ignores every other stderr line', () => {
    const converter = createGeminiCliStderrConverter(() => NOW);
    expect(converter.push('Warning: tools.allowed is deprecated\nAttempt x failed\n')).toEqual([]);
  });
});

describe('createStderrConverter of the built-in definitions', () => {
  it('is given by Gemini CLI only', () => {
    expect(geminiCli.createStderrConverter?.().push(STDERR)).toHaveLength(RETRIES.length);
    expect(claudeCodeCli.createStderrConverter).toBeUndefined();
  });
});
