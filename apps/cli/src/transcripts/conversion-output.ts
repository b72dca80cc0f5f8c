import type { ConversationMessage } from '@cairn/core';
import { createDisplayProjector, DisplayView } from '@cairn/message-processor';
import type { OutputStream } from '../io.js';
import { conversationToMarkdown } from '../render/conversation-markdown.js';

export interface ConversionOutputOptions {
  /** `log`: the messages as a store keeps them; `display`: the display view of them. */
  view: 'log' | 'display';
  /** `jsonl`: one message per line, written as they come; `md`: the display view as Markdown. */
  format: 'jsonl' | 'md';
  /** Paths inside it are shown relative (a Gemini CLI transcript does not record its directory). */
  cwd?: string;
  /** The Markdown heading. */
  title: string;
}

/** Where converted log messages go: `add` each, in order, then `end` once. */
export interface ConversionOutput {
  add(message: ConversationMessage): void;
  end(): void;
}

const jsonLine = (message: ConversationMessage) => `${JSON.stringify(message)}\n`;

/**
 * Writes the log, or its display view, to `out`. The display view is projected as the log
 * streams: a conversion never times a call out, so no execution is shown twice and the projected
 * stream is the display view as is. Markdown needs the whole view, so that one is kept until `end`.
 */
export function createConversionOutput(
  options: ConversionOutputOptions,
  out: OutputStream,
): ConversionOutput {
  if (options.format === 'jsonl' && options.view === 'log') {
    return { add: (message) => out.write(jsonLine(message)), end: () => {} };
  }
  const projector = createDisplayProjector(options.cwd === undefined ? {} : { cwd: options.cwd });
  if (options.format === 'jsonl') {
    return {
      add: (message) => {
        for (const shown of projector.push(message)) out.write(jsonLine(shown));
      },
      end: () => {
        for (const shown of projector.end()) out.write(jsonLine(shown));
      },
    };
  }
  const view = new DisplayView();
  return {
    add: (message) => {
      for (const shown of projector.push(message)) view.add(shown);
    },
    end: () => {
      for (const shown of projector.end()) view.add(shown);
      out.write(conversationToMarkdown(view.messages, { title: options.title }));
    },
  };
}
