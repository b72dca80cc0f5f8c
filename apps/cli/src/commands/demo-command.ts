import { definedFields } from '@cairn/core';
import { newChatId } from '../chat/chat-ids.js';
import { runInteractiveChat } from '../chat/interactive-chat.js';
import { runChatTurn } from '../chat/run-chat-turn.js';
import { exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import type { Colors } from '../render/colors.js';
import type { CliSession } from '../session/open-session.js';

/** What the tour asks; a real model given the same words does the same tour. */
export const DEMO_PROMPT =
  'Give me a tour of this project: read src/greet.js, fix the bug you find there, list the files, and run the tests.';

/**
 * `cairn demo`: a tour of a sample workspace — a file read, an edit with its diff, a listing, a
 * command that fails, an answer — stored like any conversation. On a terminal the chat goes on.
 */
export async function runDemoCommand(
  session: CliSession,
  io: CliIO,
  options: { colors: Colors; errColors: Colors; signal?: AbortSignal },
): Promise<number> {
  const { colors } = options;
  const conversationId = newChatId();
  // On a terminal the tour is the chat's first message, so run_command gets its approval question.
  if (io.stdin.isTTY === true && io.stdout.isTTY === true) {
    return runInteractiveChat(session, io, {
      conversationId,
      colors,
      showHistory: false,
      initialInput: DEMO_PROMPT,
      ...definedFields({ signal: options.signal }),
    });
  }
  io.stdout.write(`${colors.bold(colors.cyan('› '))}${DEMO_PROMPT}\n`);
  const result = await runChatTurn(session, {
    conversationId,
    userInput: DEMO_PROMPT,
    out: io.stdout,
    colors,
    verbose: session.settings.verbose,
    ...definedFields({ signal: options.signal }),
  });
  if (!result.success) {
    io.stderr.write(`${formatCliError(result.error)}\n`);
    return exitCodeFor(result.error);
  }
  io.stderr.write(
    `${options.errColors.dim(
      `\nstored as ${conversationId}: cairn conversations show ${conversationId} · cairn chat --resume ${conversationId}`,
    )}\n`,
  );
  return 0;
}
