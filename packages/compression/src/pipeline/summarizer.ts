import { CairnError, contentText, definedFields, type ModelAdapter, type ModelMessage } from '@cairn/core';

/** Writes the summary that replaces some messages of a conversation. */
export interface Summarizer {
  summarize(request: { messages: readonly ModelMessage[]; signal?: AbortSignal }): Promise<string>;
}

export interface ModelSummarizerOptions {
  /** Longest summary, in output tokens. Default 1,500. */
  maxOutputTokens?: number;
}

// The summary replaces the messages in the model's context: what it leaves out is gone, so it is
// told what must survive and that it writes for a reader who will not see the original.
const INSTRUCTIONS = `You summarise part of a conversation between a user and an AI assistant that uses tools.
Your summary REPLACES these messages in the assistant's context: anything you leave out is lost to it (the summary is lossy), so keep what the assistant needs to go on:
## Goal — what the user wants, in their words where it matters.
## Decisions and facts — conclusions reached, constraints, preferences, answers given.
## Work done — files read or changed (exact paths), commands run and their outcome, errors met.
## Open items — what is unfinished or was promised next.
Be specific and brief. Write only the summary, no preamble.`;

const MAX_TRANSCRIPT_LINE = 2_000;

function clip(text: string): string {
  return text.length <= MAX_TRANSCRIPT_LINE ? text : `${text.slice(0, MAX_TRANSCRIPT_LINE)} … [cut]`;
}

/** The messages as a plain transcript: sent as text, so no tool-call protocol rule can reject it. */
export function transcriptOf(messages: readonly ModelMessage[]): string {
  return messages
    .map((message) => {
      switch (message.role) {
        case 'assistant': {
          const calls = (message.tool_calls ?? []).map(
            (call) => `[calls ${call.function.name}(${clip(call.function.arguments)})]`,
          );
          return `ASSISTANT: ${[clip(contentText(message.content, { placeholders: true })), ...calls].filter(Boolean).join('\n')}`;
        }
        case 'tool':
          return `TOOL RESULT${message.isError ? ' (error)' : ''}: ${clip(contentText(message.content, { placeholders: true }))}`;
        default:
          return `${message.role.toUpperCase()}: ${clip(contentText(message.content, { placeholders: true }))}`;
      }
    })
    .join('\n\n');
}

/** A summariser that asks a model, with a structured prompt saying the summary is lossy. */
export function createModelSummarizer(model: ModelAdapter, options: ModelSummarizerOptions = {}): Summarizer {
  const maxOutputTokens = options.maxOutputTokens ?? 1_500;
  return {
    async summarize({ messages, signal }) {
      const result = await model.generate({
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: `The messages to summarise:\n\n${transcriptOf(messages)}` },
        ],
        settings: { maxOutputTokens },
        ...definedFields({ signal }),
      });
      const summary = result.message.content?.trim() ?? '';
      if (summary === '') throw new CairnError('LLM_BAD_RESPONSE', 'the summariser answered with no text');
      return summary;
    },
  };
}
