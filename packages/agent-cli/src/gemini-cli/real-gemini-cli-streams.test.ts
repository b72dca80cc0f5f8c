import { readFileSync } from 'node:fs';
import { isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { ofType, realStreams, recordedLine, STAND_IN_400_ERROR } from '../../test/real-stream-events.js';
import { createGeminiCliConverter } from './create-gemini-cli-converter.js';

// Streams of the real Gemini CLI 0.61.0 (fixtures/real/gemini-cli, recorded by
// `pnpm fixtures:record` against the scripted stand-in of the API). What differs from one recording
// to the next (times) is read from the recorded lines, so a re-recording needs no edit here.
const { real, convert } = realStreams('gemini-cli', createGeminiCliConverter);

describe('Gemini CLI API errors (real apierr: 503 until the retries ran out)', () => {
  const events = convert(real('apierr'));

  it('reports the extracted message with an LLM code, after the text that came before it', () => {
    const result = recordedLine<{ timestamp: string }>(real('apierr'), { type: 'result' });
    expect(events.every(isAgentOutput)).toBe(true);
    expect(ofType(events, 'error')).toEqual([
      {
        type: 'error',
        // The time of the result line that carries the error.
        timestamp: result.timestamp,
        code: 'LLM_UNAVAILABLE',
        message: 'The model is overloaded. Please try again later.',
        retryable: true,
        fatal: true,
        raw: '[API Error: The model is overloaded. Please try again later.]',
        providerMetadata: { 'gemini-cli': { errorType: 'unknown', status: 503 } },
      },
    ]);
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('text')).toBeLessThan(types.indexOf('error'));
  });

  it('reports no duration for the failed session rather than 0 ms', () => {
    const [result] = ofType(events, 'session_result');
    expect(result).toMatchObject({ isError: true, subtype: 'error' });
    expect(result).not.toHaveProperty('durationMs');
  });
});

describe('Gemini CLI 400 (real err400)', () => {
  it('reads the message out of the JSON body and maps the status', () => {
    const events = convert(real('err400'));
    expect(ofType(events, 'error')).toEqual([
      expect.objectContaining({
        ...STAND_IN_400_ERROR,
        providerMetadata: { 'gemini-cli': { errorType: 'unknown', status: 400 } },
      }),
    ]);
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('text')).toBeLessThan(types.indexOf('error'));
  });
});

describe('Gemini CLI error lines', () => {
  it('reads an [API Error: …] in an error line the same way, keeping its severity', () => {
    const line = JSON.stringify({
      type: 'error',
      timestamp: '2026-11-26T11:58:02.000Z',
      severity: 'error',
      message: '[API Error: {"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}]',
    });
    expect(ofType(convert(line), 'error')).toEqual([
      expect.objectContaining({
        code: 'LLM_RATE_LIMITED',
        message: 'Quota exceeded',
        retryable: true,
        fatal: false,
      }),
    ]);
  });
});

describe('Gemini CLI usage with thoughts (real think)', () => {
  it('counts the thought tokens total_tokens has and output_tokens lacks as reasoning', () => {
    // stats: total_tokens 112 = input_tokens 36 + output_tokens 53 + 23 thought tokens.
    const [usage] = ofType(convert(real('think')), 'usage');
    expect(usage?.usage).toEqual({
      inputTokens: 36,
      outputTokens: 76,
      reasoningTokens: 23,
      totalTokens: 112,
      cacheReadTokens: 0,
    });
  });
});

describe('Gemini CLI tool results (real main, real deny)', () => {
  const results = ofType(convert(real('main')), 'tool_result');

  it('gives write_file and replace, which report no output, a text that says what they did', () => {
    expect(results.slice(0, 2).map((result) => [result.toolName, result.output])).toEqual([
      ['write_file', 'Wrote /tmp/cairn-agent-cli-XXXXXX/work/hello.txt'],
      ['replace', 'Edited /tmp/cairn-agent-cli-XXXXXX/work/hello.txt'],
    ]);
  });

  it('maps error.type to a code: file_not_found is a tool failure', () => {
    expect(results[3]).toMatchObject({
      isError: true,
      output: 'File not found: /tmp/cairn-agent-cli-XXXXXX/work/does-not-exist.txt',
      structured: { error: { type: 'file_not_found' }, errorCode: 'TOOL_FAILED' },
    });
  });

  it('maps tool_not_registered (a tool headless mode removed) to TOOL_NOT_FOUND', () => {
    const [denied] = ofType(convert(real('deny')), 'tool_result');
    expect(denied).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^Tool "write_file" not found/),
      structured: { errorCode: 'TOOL_NOT_FOUND' },
    });
  });
});

describe('Gemini CLI stopped by SIGINT (real sigint-sleep)', () => {
  it('has no result line: the converter reports no session result of its own', () => {
    const events = convert(real('sigint-sleep'));
    expect(events.every(isAgentOutput)).toBe(true);
    expect(ofType(events, 'session_result')).toEqual([]);
  });
});

describe('Gemini CLI reading an image (real read-image, fixtures/real-image)', () => {
  // 0.61.0 sends the image to the model as `inlineData` but prints only its display text on
  // stream-json (`output: resultDisplay` when that is a string): no bytes reach the converter.
  const events = convert(
    readFileSync(new URL('../../fixtures/real-image/gemini-cli-read-image.jsonl', import.meta.url), 'utf8'),
  );

  it('keeps the result as the text the CLI printed, with no parts', () => {
    expect(events.every(isAgentOutput)).toBe(true);
    const [result] = ofType(events, 'tool_result');
    expect(result).toMatchObject({
      toolName: 'read_file',
      output: 'Read image file: shot.png',
      isError: false,
    });
    expect(result).not.toHaveProperty('content');
    expect(ofType(events, 'unknown')).toEqual([]);
  });
});
