import { readFileSync } from 'node:fs';
import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import { createGeminiCliConverter } from '@cairn/agent-cli/gemini-cli';
import type { AgentOutput, ConversationMessage } from '@cairn/core';
import { convertLines, type LineConverter } from '@cairn/provider-utils';
import { createMessageProcessor } from '../src/index.js';

export type FixtureSource = 'claude-code' | 'gemini-cli';

// The captured transcripts live beside the converters that own them.
const claudeFixtures = new URL('../../agent-cli/src/claude-code/__fixtures__/', import.meta.url);
const geminiFixtures = new URL('../../agent-cli/src/gemini-cli/__fixtures__/', import.meta.url);

export const FIXTURES = {
  claudeStream: new URL('stream.jsonl', claudeFixtures),
  claudePartial: new URL('stream-partial-messages.jsonl', claudeFixtures),
  geminiStream: new URL('stream.jsonl', geminiFixtures),
};

/** Where the Gemini CLI transcript was recorded (its output does not say). */
export const GEMINI_CWD = '/home/dev/work-gemini-stream';

export const PROMPT =
  'Create hello.txt containing a greeting, change the greeting, list the directory, then check whether does-not-exist.txt exists.';

export function readFixture(url: URL): string {
  return readFileSync(url, 'utf8');
}

const FIXED_CLOCK = new Date('2026-11-22T12:00:00.000Z');

function converterFor(source: FixtureSource): LineConverter<AgentOutput> {
  return source === 'claude-code'
    ? createClaudeCodeConverter({ now: () => FIXED_CLOCK })
    : createGeminiCliConverter({ now: () => FIXED_CLOCK });
}

/** Runs chunks of agent stdout through converter and processor; deterministic ids and clocks. */
export async function processChunks(
  source: FixtureSource,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<ConversationMessage[]> {
  const log: ConversationMessage[] = [];
  let next = 0;
  const processor = createMessageProcessor({
    onLogMessage: (message) => log.push(message),
    generateId: () => `msg-${++next}`,
    now: () => FIXED_CLOCK.getTime(),
  });
  const input = (async function* () {
    yield* chunks;
  })();
  for await (const event of convertLines(input, converterFor(source))) processor.push(event);
  processor.end();
  return log;
}
