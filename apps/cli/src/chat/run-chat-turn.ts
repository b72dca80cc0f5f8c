import type { ResolvedModel } from '@cairn/connect';
import { type AgentOutput, definedFields, type MessageContent } from '@cairn/core';
import type { ChatResult, RuntimeEvent } from '@cairn/runtime';
import type { OutputStream } from '../io.js';
import type { Colors } from '../render/colors.js';
import { createLiveTurnRenderer } from '../render/live-turn-renderer.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import type { Spinner } from '../render/spinner.js';
import type { CliSession } from '../session/open-session.js';

export interface ChatTurnOptions {
  conversationId: string;
  /** Text, or text and attached images and files. */
  userInput: MessageContent;
  /** The model for this turn (default: the session's). */
  model?: ResolvedModel;
  signal?: AbortSignal;
  out: OutputStream;
  colors: Colors;
  spinner?: Spinner;
  /** Print each `AgentOutput` event as a JSON line instead of rendering it. */
  json?: boolean;
  verbose?: boolean;
  /** Print the turn's error in the transcript (default true; `-p` reports it on stderr instead). */
  showErrors?: boolean;
}

const isAgentOutput = (event: AgentOutput | RuntimeEvent): event is AgentOutput => event.type !== 'runtime';

/** The agent chat turns run as (the config's system prompt), so `/compress` builds the same context. */
export function chatAgent(session: CliSession): { agent?: { systemPrompt: string } } {
  const systemPrompt = session.settings.systemPrompt;
  return systemPrompt === undefined ? {} : { agent: { systemPrompt } };
}

/** One chat turn through the runtime, shown live: streamed text, one merged line per tool call, diffs. */
export async function runChatTurn(session: CliSession, options: ChatTurnOptions): Promise<ChatResult> {
  const { out } = options;
  const renderer = options.json
    ? undefined
    : createLiveTurnRenderer({
        out,
        colors: options.colors,
        cwd: session.workspace,
        markdown: markdownEnabled(out, session.settings),
        modelLabel: (options.model ?? session.model).modelId,
        ...definedFields({
          spinner: options.spinner,
          width: out.columns,
          verbose: options.verbose,
          showErrors: options.showErrors,
        }),
      });
  try {
    return await session.runtime.chat({
      conversationId: options.conversationId,
      userInput: options.userInput,
      ...(options.model === undefined ? {} : { model: options.model.adapter }),
      ...definedFields({ signal: options.signal }),
      ...chatAgent(session),
      onEvent: (event) => {
        if (renderer !== undefined) renderer.onEvent(event);
        else if (isAgentOutput(event)) out.write(`${JSON.stringify(event)}\n`);
      },
    });
  } finally {
    renderer?.finish();
  }
}
