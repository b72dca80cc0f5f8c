import type { ChatMessage } from './read-chat-request.js';
import { firstLine } from './tool-outcomes.js';

// How `createModelSummarizer` (@cairn/compression) opens its request: the transcript follows.
const SUMMARY_REQUEST_PREFIX = 'The messages to summarise:';
// How a summary already folded into the history starts (core's `compactionSummaryText`).
const EARLIER_SUMMARY_PREFIX = '[Summary of the earlier conversation';

/** The transcript to summarise, when this is a summariser's request rather than a chat turn. */
export function summaryRequestTranscript(messages: readonly ChatMessage[]): string | undefined {
  const request = messages.find(
    (message) => message.role === 'user' && message.content.startsWith(SUMMARY_REQUEST_PREFIX),
  );
  return request?.content.slice(SUMMARY_REQUEST_PREFIX.length);
}

const matchesOf = (transcript: string, pattern: RegExp) => [...transcript.matchAll(pattern)];

function workDone(transcript: string): string[] {
  const calls = matchesOf(transcript, /\[calls ([\w.-]+)\((.*)\)\]$/gm);
  const results = matchesOf(transcript, /^TOOL RESULT( \(error\))?: (.*)$/gm);
  return calls.map(([, name, args], index) => {
    const result = results[index];
    const outcome =
      result === undefined ? 'no result' : `${result[1] ? 'error' : 'ok'}: ${firstLine(result[2] ?? '', 80)}`;
    return `- ${name}(${firstLine(args ?? '', 80)}) → ${outcome}`;
  });
}

/**
 * A summary in the sections the summariser asks for, built from the transcript itself: the
 * user's requests and each tool call with its outcome, so `/compress` works on the demo model.
 */
export function demoSummary(transcript: string): string {
  const requests = matchesOf(transcript, /^USER: (.*)$/gm)
    .map(([, text]) => text ?? '')
    .filter((text) => !text.startsWith(EARLIER_SUMMARY_PREFIX));
  const work = workDone(transcript);
  const latest = requests.length > 1 ? requests.at(-1) : undefined;
  return [
    '## Goal',
    requests[0] === undefined ? 'Not stated.' : `“${firstLine(requests[0], 200)}”`,
    '## Decisions and facts',
    "- The assistant is Cairn's scripted offline demo, not a language model: it can only tour its sample project.",
    ...(transcript.includes(EARLIER_SUMMARY_PREFIX)
      ? ['- Earlier parts of the conversation were summarised before; their details are gone.']
      : []),
    '## Work done',
    ...(work.length === 0 ? ['- No tools were called.'] : work),
    '## Open items',
    latest === undefined ? '- None recorded.' : `- The latest request: “${firstLine(latest, 200)}”`,
  ].join('\n');
}
