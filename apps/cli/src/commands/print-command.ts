import { type CairnError, definedFields, type MessageContent } from '@cairn/core';
import { newChatId } from '../chat/chat-ids.js';
import { runChatTurn } from '../chat/run-chat-turn.js';
import { cliFailure, exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import { type EndReason, endReason } from '../process-end.js';
import type { Colors } from '../render/colors.js';
import type { CliSession } from '../session/open-session.js';

export interface PrintCommandOptions {
  /** The prompt, with any `--attach` files as parts after its text. */
  prompt: MessageContent;
  conversationId?: string;
  json?: boolean;
  colors: Colors;
  /** Colours for stderr. */
  errColors: Colors;
  signal?: AbortSignal;
}

/**
 * `cairn -p "<prompt>"`: one turn, no questions asked, for scripts. The answer (or, with `--json`,
 * every `AgentOutput` event as a JSON line) goes to stdout; the conversation id and any error to
 * stderr. Exit code 0 on success, else the family of the error code (see `exitCodeFor`).
 */
export async function runPrintCommand(
  session: CliSession,
  io: CliIO,
  options: PrintCommandOptions,
): Promise<number> {
  const conversationId = options.conversationId ?? newChatId();
  const result = await runChatTurn(session, {
    conversationId,
    userInput: options.prompt,
    out: io.stdout,
    colors: options.colors,
    verbose: session.settings.verbose,
    showErrors: false,
    ...definedFields({ json: options.json, signal: options.signal }),
  });
  io.stderr.write(`${options.errColors.dim(`conversation ${conversationId}`)}\n`);
  if (result.success) return 0;
  const error = stoppedBy(endReason(options.signal), result.error, conversationId);
  io.stderr.write(`${formatCliError(error)}\n`);
  return exitCodeFor(error);
}

// An abort the process asked for says what stopped the turn and that nothing is lost.
function stoppedBy(
  reason: EndReason | undefined,
  error: CairnError | undefined,
  conversationId: string,
): CairnError | undefined {
  if (reason === undefined || error?.code !== 'LLM_ABORTED') return error;
  return cliFailure(
    'LLM_ABORTED',
    `the turn was stopped by ${reason}; what it said so far is stored`,
    `\`cairn chat --resume ${conversationId}\` goes on from there`,
  );
}
