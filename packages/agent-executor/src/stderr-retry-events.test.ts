import { describe, expect, it } from 'vitest';
import { claudeCodeCli } from './claude-code-cli.js';
import { geminiCli } from './gemini-cli.js';
import { createGeminiCliStderrConverter } from './stderr-retry-events.js';

const NOW = new Date('2026-11-26T11:57:00.000Z');

// Gemini CLI 0.61.0's stderr during the apierr scenario (503 on every attempt): the retry line,
// then the error it prints with it (shortened here), for each attempt.
const STDERR = [
  'Attempt 1 failed with status 503. Retrying with backoff... ApiError: {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}',
  '    at throwErrorIfNotOK (file:///cli/node_modules/@google/genai/dist/node/index.mjs:11201:30)',
  '    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)',
  'Attempt 2 failed with status 503. Retrying with backoff... ApiError: {"error":{"code":503}}',
  'Attempt 3 failed. Retrying with backoff... TypeError: fetch failed',
  '',
].join('\n');

describe('createGeminiCliStderrConverter', () => {
  it("turns Gemini CLI's retry lines into retry events, whatever the chunking", () => {
    const expected = [
      { type: 'retry', timestamp: NOW.toISOString(), attempt: 1, status: 503 },
      { type: 'retry', timestamp: NOW.toISOString(), attempt: 2, status: 503 },
      { type: 'retry', timestamp: NOW.toISOString(), attempt: 3 },
    ];
    expect(createGeminiCliStderrConverter(() => NOW).push(STDERR)).toEqual(expected);
    const converter = createGeminiCliStderrConverter(() => NOW);
    const bytes = Buffer.from(STDERR);
    const events = [];
    for (let at = 0; at < bytes.length; at += 13) events.push(...converter.push(bytes.subarray(at, at + 13)));
    expect(events).toEqual(expected);
  });

  it('ignores every other stderr line', () => {
    const converter = createGeminiCliStderrConverter(() => NOW);
    expect(converter.push('Warning: tools.allowed is deprecated\nAttempt x failed\n')).toEqual([]);
  });
});

describe('createStderrConverter of the built-in definitions', () => {
  it('is given by Gemini CLI only', () => {
    expect(geminiCli.createStderrConverter?.().push(STDERR)).toHaveLength(3);
    expect(claudeCodeCli.createStderrConverter).toBeUndefined();
  });
});
