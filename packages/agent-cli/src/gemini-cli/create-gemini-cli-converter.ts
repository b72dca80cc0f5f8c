import type { AgentOutput, JsonValue } from '@cairn/core';
import {
  convertGeminiCliLine,
  type GeminiCliSessionState,
  isKnownGeminiCliLine,
} from './convert-gemini-cli-line.js';
import {
  type Clock,
  isRecord,
  malformedLineEvent,
  neverThrowing,
  systemClock,
  timestampOf,
  unknownEvent,
  unknownFieldsEvent,
} from './gemini-cli-event-factory.js';
import { GeminiCliTextBlock } from './gemini-cli-text-block.js';

export interface GeminiCliConverterOptions {
  /** Time for events whose line has no valid `timestamp` (malformed lines). Defaults to the system clock. */
  now?: Clock;
}

/** Converts Gemini CLI `--output-format stream-json` output, one line at a time. */
export interface GeminiCliConverter {
  /** The events of one line (without its line break). Never throws. */
  push(line: string): AgentOutput[];
  /** The events still held back (an open text block) once the output has ended. */
  end(): AgentOutput[];
}

const ASSISTANT_DELTA_FIELDS = new Set(['type', 'timestamp', 'role', 'content', 'delta']);

/** A stateful stream-json converter: assistant chunks become one text block per run of `delta` lines. */
export function createGeminiCliConverter(options: GeminiCliConverterOptions = {}): GeminiCliConverter {
  const now = options.now ?? systemClock;
  const textBlock = new GeminiCliTextBlock();
  const state: GeminiCliSessionState = {
    sessionId: undefined,
    toolNames: new Map(),
    filePaths: new Map(),
    lastText: undefined,
  };

  const closeText = (): AgentOutput[] => {
    const closing = textBlock.close();
    for (const event of closing) if (event.type === 'text') state.lastText = event.text;
    return closing;
  };

  const convert = (text: string): AgentOutput[] => {
    if (text.trim() === '') return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Junk (a stray log line) neither closes the open text block nor stops the stream.
      return [malformedLineEvent(text, now().toISOString())];
    }
    if (!isRecord(parsed)) return [unknownEvent(parsed as JsonValue, now().toISOString())];
    const timestamp = timestampOf(parsed, now);
    if (parsed.type === 'message' && parsed.role === 'assistant' && typeof parsed.content === 'string') {
      return [
        textBlock.append(parsed.content, timestamp),
        ...unknownFieldsEvent(parsed, ASSISTANT_DELTA_FIELDS, timestamp),
      ];
    }
    // Lines of unknown types are kept but, like junk, do not end the text block around them.
    if (!isKnownGeminiCliLine(parsed)) return [unknownEvent(parsed as JsonValue, timestamp)];
    const closing = closeText();
    return [...closing, ...convertGeminiCliLine(parsed, timestamp, state)];
  };

  return {
    push: neverThrowing(convert, now),
    end() {
      return closeText();
    },
  };
}
