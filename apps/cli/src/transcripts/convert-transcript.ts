import type { AgentOutput, ConversationMessage } from '@cairn/core';
import { createMessageProcessor } from '@cairn/message-processor';
import { cliFailure } from '../cli-error.js';
import { SkippedLines } from './skipped-lines.js';
import { TranscriptClock } from './transcript-clock.js';
import type { TranscriptFormat, TranscriptLineConverter } from './transcript-formats.js';
import { TranscriptGate } from './transcript-gate.js';

// With nothing converted yet, this many skipped lines (or held errors) mean the input is not this
// CLI's transcript: stop there rather than read a large file to its end.
const MAX_SKIPPED_BEFORE_FIRST_MESSAGE = 100;
// A `--output-format json` document is parsed whole; it is one result, not a long session.
const MAX_DOCUMENT_CHARS = 64 * 1024 * 1024;

export interface ConvertTranscriptOptions {
  format: TranscriptFormat;
  /** The input as messages name it (the file, or "stdin"). */
  label: string;
  /** When the transcript was saved (ms): the time of messages it gives no time for. */
  savedAt: number;
  /** Each log message, in order; none unless the input is a transcript. */
  onLogMessage(message: ConversationMessage): void;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// `--output-format json` prints one object: pretty-printed (a first line of `{`), or on one line
// without the `type` every stream-json line has.
function startsDocument(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed === '{') return true;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) && typeof value.type !== 'string';
  } catch {
    return false;
  }
}

/**
 * Converts a saved transcript, read line by line, into Cairn log messages: the CLI's converter
 * and the message processor, as the agent executor runs them live. Lines that are not JSON become
 * skipped-line errors in the log, lines of unknown types nothing; both are counted in the returned
 * `SkippedLines`. Throws `INVALID_ARGUMENT`, having written nothing, when the input is not a
 * transcript (see `TranscriptGate`); a large one is given up on after
 * `MAX_SKIPPED_BEFORE_FIRST_MESSAGE` lines without a message.
 */
export async function convertTranscript(
  lines: AsyncIterable<string>,
  options: ConvertTranscriptOptions,
): Promise<SkippedLines> {
  const { format, label } = options;
  const clock = new TranscriptClock(() => options.savedAt);
  const skipped = new SkippedLines();
  const gate = new TranscriptGate(options.onLogMessage);
  let sessionStarted = false;
  const processor = createMessageProcessor({
    onLogMessage: gate.push,
    // As the executor marks an agent's messages.
    messageFields: { mode: 'agent' },
    // A recorded call is not waited for: its result is further down the file or never comes.
    pendingTimeoutMs: Number.POSITIVE_INFINITY,
    now: clock.now,
  });
  const push = (events: readonly AgentOutput[]) => {
    for (const event of events) {
      if (event.type === 'session_start') sessionStarted = true;
      processor.push(event);
    }
  };
  const notATranscript = (reason: string) =>
    cliFailure(
      'INVALID_ARGUMENT',
      `${label} is not a ${format.name} stream-json transcript (${reason})`,
      `save it with \`${format.saveCommand}\``,
    );

  let converter: TranscriptLineConverter | undefined;
  let document: string[] | undefined;
  let documentChars = 0;
  let number = 0;
  for await (const line of lines) {
    number++;
    if (document !== undefined) {
      documentChars += line.length + 1;
      if (documentChars > MAX_DOCUMENT_CHARS) throw notATranscript('one JSON document over 64 MiB');
      document.push(line);
      continue;
    }
    if (converter === undefined) {
      if (line.trim() === '') continue;
      if (startsDocument(line)) {
        document = [line];
        documentChars = line.length;
        continue;
      }
      converter = format.createConverter(clock.date);
    }
    const events = converter.push(line);
    skipped.record(number, line, events);
    push(clock.time(events));
    const waiting = Math.max(skipped.count, gate.heldCount);
    if (!gate.opened && waiting >= MAX_SKIPPED_BEFORE_FIRST_MESSAGE) {
      const first = skipped.firstProblem();
      throw notATranscript(
        `${first === undefined ? '' : `${first}; `}nothing converted in the first ${number} lines`,
      );
    }
  }

  if (document !== undefined) {
    push(clock.time(format.convertDocument(parseDocument(document, notATranscript), clock.date)));
  } else if (converter !== undefined) {
    push(clock.time(converter.end()));
  }
  push(clock.end());
  processor.end();
  gate.end(sessionStarted);
  if (!gate.opened) throw notATranscript(noMessagesReason(skipped, converter, document));
  return skipped;
}

function parseDocument(lines: readonly string[], notATranscript: (reason: string) => Error): unknown {
  try {
    return JSON.parse(lines.join('\n'));
  } catch (error) {
    throw notATranscript(`neither JSON lines nor one JSON document: ${(error as Error).message}`);
  }
}

// Why nothing converted, for the error: the first skipped line, else what the input was.
function noMessagesReason(
  skipped: SkippedLines,
  converter: TranscriptLineConverter | undefined,
  document: readonly string[] | undefined,
): string {
  const first = skipped.firstProblem();
  if (first !== undefined) return first;
  if (document !== undefined) return 'one JSON document with no messages in it';
  if (converter === undefined) return 'it is empty';
  return 'no line in it converts to a message';
}
