import { type CairnError, definedFields, type MessageContent } from '@cairn/core';
import type { ChatResult } from '@cairn/runtime';
import { newChatId } from '../chat/chat-ids.js';
import { runChatTurn } from '../chat/run-chat-turn.js';
import { cliFailure, exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import { type EndReason, endReason } from '../process-end.js';
import { waitingLines } from '../render/approval-text.js';
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
 * every `AgentOutput` event as a JSON line) goes to stdout; the conversation id, the calls left
 * waiting for approval and any error to stderr. Exit code 0 on success (waiting included), else the
 * family of the error code (see `exitCodeFor`).
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
  return reportOneShot(result, io, { ...options, conversationId });
}

/**
 * The end of a turn no one answers questions in (`-p`, `cairn approvals`), on stderr: the
 * conversation id, each request the turn stopped for with the commands that decide it, and any
 * error (its exit code is returned). A turn that waits for a decision ends with 0: it is stored.
 */
export function reportOneShot(
  result: ChatResult,
  io: CliIO,
  options: { conversationId: string; errColors: Colors; signal?: AbortSignal | undefined },
): number {
  const { conversationId, errColors } = options;
  io.stderr.write(`${errColors.dim(`conversation ${conversationId}`)}\n`);
  if (result.waiting !== undefined) io.stderr.write(waitingLines(conversationId, result.waiting, errColors));
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
