import type { ResolvedModel } from '@cairn/connect';
import { type AgentOutput, definedFields, type MessageContent } from '@cairn/core';
import type { ChatResult, RuntimeEvent } from '@cairn/runtime';
import type { OutputStream } from '../io.js';
import type { Colors } from '../render/colors.js';
import { createLiveTurnRenderer } from '../render/live-turn-renderer.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import type { Spinner } from '../render/spinner.js';
import type { CliSession } from '../session/open-session.js';
import { lastCalls } from './last-calls.js';

export interface ChatTurnOptions {
  conversationId: string;
  /**
   * Text, or text and attached images and files. Absent: the conversation is resumed from the store
   * (`runtime.resume`): its last answer's decided calls run, then the model goes on.
   */
  userInput?: MessageContent;
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
  const { out, userInput } = options;
  // A resumed turn's results belong to calls stored before it: the view learns them first.
  const history =
    userInput === undefined ? lastCalls(await session.store.load(options.conversationId)).messages : [];
  const renderer = options.json
    ? undefined
    : createLiveTurnRenderer({
        out,
        colors: options.colors,
        cwd: session.workspace,
        markdown: markdownEnabled(out, session.settings),
        modelLabel: (options.model ?? session.model).modelId,
        history,
        ...definedFields({
          spinner: options.spinner,
          width: out.columns,
          verbose: options.verbose,
          showErrors: options.showErrors,
        }),
      });
  const params = {
    conversationId: options.conversationId,
    ...(options.model === undefined ? {} : { model: options.model.adapter }),
    ...definedFields({ signal: options.signal }),
    ...chatAgent(session),
    onEvent: (event: AgentOutput | RuntimeEvent) => {
      if (renderer !== undefined) renderer.onEvent(event);
      else if (isAgentOutput(event)) out.write(`${JSON.stringify(event)}\n`);
    },
  };
  try {
    return await (userInput === undefined
      ? session.runtime.resume(params)
      : session.runtime.chat({ ...params, userInput }));
  } finally {
    renderer?.finish();
  }
}
