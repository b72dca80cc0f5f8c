import type { AgentOutput } from '@cairn/core';
import { createClaudeCodeConverter } from '../claude-code/create-claude-code-converter.js';
import { qwenCodeApiError } from './qwen-code-api-error.js';

export interface QwenCodeConverterOptions {
  /** The clock for events whose line has no timestamp of its own (Qwen Code's lines have none). */
  now?: () => Date;
}

/** Converts Qwen Code `--output-format stream-json` output, one line at a time. */
export interface QwenCodeConverter {
  /** The events of one line (without its line break). Never throws. */
  push(line: string): AgentOutput[];
  /** The events still owed when the output ends. */
  end(): AgentOutput[];
}

const PROVIDER = 'qwen-code';
const CLAUDE_CODE = 'claude-code';

/**
 * Qwen Code writes Claude Code's stream-json format (system `init`, `assistant`/`user` lines with
 * content blocks, `result`), so its lines go through the Claude Code converter; the events are
 * then Qwen Code's: its provider name, its source on `unknown` events, and its API errors (which it
 * reports as assistant text and a successful result) as errors instead of that text.
 */
export function createQwenCodeConverter(options: QwenCodeConverterOptions = {}): QwenCodeConverter {
  const claude = createClaudeCodeConverter(options.now === undefined ? {} : { now: options.now });
  let apiErrorText: string | undefined;

  const own = (event: AgentOutput): AgentOutput[] => {
    switch (event.type) {
      case 'session_start': {
        const { providerMetadata, ...rest } = event;
        const metadata = providerMetadata?.[CLAUDE_CODE];
        return [
          {
            ...rest,
            provider: PROVIDER,
            ...(metadata === undefined ? {} : { providerMetadata: { [PROVIDER]: metadata } }),
          },
        ];
      }
      case 'unknown':
        return [event.source === CLAUDE_CODE ? { ...event, source: PROVIDER } : event];
      case 'text': {
        const error = qwenCodeApiError(event.text, event.timestamp);
        if (error === undefined) return [event];
        // An API error is the run's failure, never model output: nothing stores it as an answer.
        apiErrorText = event.text;
        return [error];
      }
      case 'session_result':
        // The "success" after an API error is the failed call's end.
        if (apiErrorText === undefined || event.isError) return [event];
        return [{ ...event, isError: true, subtype: 'api_error' }];
      default:
        return [event];
    }
  };

  return {
    push: (line) => claude.push(line).flatMap(own),
    end: () => claude.end().flatMap(own),
  };
}
