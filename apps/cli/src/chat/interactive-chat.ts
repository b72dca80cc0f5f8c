import { createInterface } from 'node:readline/promises';
import { describeModel, type ResolvedModel } from '@cairn/connect';
import {
  CairnError,
  definedFields,
  type FilePart,
  type ImagePart,
  isMediaPart,
  type MessageContent,
} from '@cairn/core';
import { lineWithAttachments } from '../attachments/message-with-attachments.js';
import { formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import { waitingLines } from '../render/approval-text.js';
import { attachmentLabel } from '../render/attachment-label.js';
import type { Colors } from '../render/colors.js';
import { createSpinner } from '../render/spinner.js';
import type { CliSession } from '../session/open-session.js';
import { terminalApprovalPrompt } from '../session/terminal-approval.js';
import { newChatId } from './chat-ids.js';
import { historyText, recentConversationsText } from './chat-views.js';
import { compressNow } from './compress-now.js';
import { decidePendingApprovals } from './decide-pending.js';
import { owesResume } from './last-calls.js';
import { parseModelTarget, switchModel } from './model-switch.js';
import { runChatTurn } from './run-chat-turn.js';
import { parseSlashCommand, slashHelp } from './slash-commands.js';
import { UsageTotals } from './usage-totals.js';

// Two Ctrl-C this close together end the program.
const DOUBLE_INTERRUPT_MS = 2000;

export interface InteractiveChatOptions {
  conversationId?: string;
  colors: Colors;
  /** Print the conversation's recent history first (default true when resuming). */
  showHistory?: boolean;
  /** A first message, sent (and shown) before the prompt: the demo's tour. */
  initialInput?: string;
  /** Aborted when the process must end (SIGTERM, SIGHUP, a closed stdout): the turn is stored, the chat ends. */
  signal?: AbortSignal;
  /** `--attach` files, sent with the first message. */
  attachments?: readonly (ImagePart | FilePart)[];
}

/**
 * The interactive chat: a prompt, streamed answers, slash commands. Ctrl-C aborts the running turn
 * (the partial turn is stored as interrupted); a second Ctrl-C, or one at an empty prompt pressed
 * twice, exits. Without a terminal it reads one message per line until the input ends.
 */
export async function runInteractiveChat(
  session: CliSession,
  io: CliIO,
  options: InteractiveChatOptions,
): Promise<number> {
  const { colors } = options;
  const out = io.stdout;
  const terminal = io.stdin.isTTY === true && out.isTTY === true;
  const rl = createInterface({
    input: io.stdin,
    output: out as NodeJS.WritableStream,
    terminal,
    historySize: terminal ? 500 : 0,
  });
  // Taken now, so lines that arrive while the history prints (piped input) are buffered, not lost.
  const lines = rl[Symbol.asyncIterator]();
  rl.setPrompt(terminal ? colors.bold(colors.cyan('› ')) : '');
  // Piped input ends by closing readline; Node 24 throws on a prompt after that (20 ignored it).
  let inputClosed = false;
  rl.once('close', () => {
    inputClosed = true;
  });
  const prompt = () => {
    if (!inputClosed) rl.prompt();
  };
  // A terminal that went away (closed, hung up) fails readline's last mode switch with EIO: that
  // is the input ending, not an error of the chat.
  const nextLine = () =>
    lines.next().catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EIO') throw error;
      return { done: true as const, value: undefined };
    });
  const spinner = createSpinner(out, { enabled: terminal, colors });
  const usage = new UsageTotals();
  let conversationId = options.conversationId ?? newChatId();
  let model: ResolvedModel = session.model;
  let running: AbortController | undefined;
  let lastInterrupt = 0;
  let exiting = false;
  const say = (text: string) => out.write(text.endsWith('\n') ? text : `${text}\n`);

  let interrupted = false;
  const exit = () => {
    exiting = true;
    running?.abort();
    rl.close();
  };

  const interrupt = () => {
    const now = Date.now();
    const twice = now - lastInterrupt < DOUBLE_INTERRUPT_MS;
    lastInterrupt = now;
    if (running !== undefined && !running.signal.aborted && !twice) {
      spinner.stop();
      running.abort();
      say(colors.yellow('\n⏹ aborting this turn — press Ctrl-C again to exit'));
      return;
    }
    if (twice || running !== undefined) {
      say('');
      interrupted = true;
      exit();
      return;
    }
    if (terminal) rl.write(null, { ctrl: true, name: 'u' });
    say(colors.dim('\n(press Ctrl-C again to exit, or type /exit)'));
    prompt();
  };
  // On a terminal readline reads Ctrl-C itself; otherwise (output redirected) it reaches the process.
  rl.on('SIGINT', interrupt);
  if (!terminal) process.on('SIGINT', interrupt);
  const ended = () => {
    interrupted = true;
    exit();
  };
  if (options.signal?.aborted) ended();
  options.signal?.addEventListener('abort', ended);
  // What Ctrl-C aborts: a turn, a compression, the questions of a resumed conversation.
  const cancellable = async (work: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    running = controller;
    try {
      await work(controller.signal);
    } finally {
      running = undefined;
    }
  };
  // The question reads the keys itself: its Ctrl-C is the chat's too.
  if (terminal) {
    session.approver.setPrompt(
      terminalApprovalPrompt({
        input: io.stdin,
        write: (text) => out.write(text),
        colors,
        spinner,
        signal: () => running?.signal,
        onInterrupt: interrupt,
      }),
    );
  }

  const showHistory = async (id: string) => {
    out.write(await historyText(session, id, out, colors));
  };

  const handleSlash = async (line: string): Promise<void> => {
    const command = parseSlashCommand(line);
    if (command === undefined) return;
    switch (command.name) {
      case 'help':
        say(slashHelp());
        return;
      case 'new':
        conversationId = newChatId();
        say(colors.dim(`new conversation ${conversationId}`));
        return;
      case 'resume':
        if (command.argument === undefined) {
          say('usage: /resume <id> — /conversations lists them');
          return;
        }
        await showHistory(command.argument);
        conversationId = command.argument;
        say(colors.dim(`resumed ${conversationId}`));
        return continueWaiting();
      case 'conversations':
        out.write(await recentConversationsText(session.store, conversationId, colors));
        return;
      case 'model': {
        if (command.argument !== undefined) {
          const next = await switchModel(parseModelTarget(command.argument, model), session, model, io.env);
          if (model !== session.model && model !== next) await model.close();
          model = next;
        }
        say(describeModel(model));
        return;
      }
      case 'compress':
        return cancellable(async (signal) => {
          spinner.start('compressing the conversation…');
          try {
            const line = await compressNow(session, { conversationId, model, signal, colors });
            spinner.stop();
            say(line);
          } finally {
            spinner.stop();
          }
        });
      case 'usage':
        say(usage.describe());
        return;
      case 'exit':
        exit();
        return;
      case 'unknown':
        say(`unknown command ${command.text} — /help lists them`);
        return;
    }
  };

  // `--attach` files go with the first message; `@path` tokens attach files to any message.
  let pending = options.attachments ?? [];
  const runTurn = async (line: string) => {
    const userInput: MessageContent = await lineWithAttachments(line, io.cwd, pending);
    pending = [];
    if (typeof userInput !== 'string') {
      for (const part of userInput)
        if (isMediaPart(part)) say(colors.dim(`  attached ${attachmentLabel(part)}`));
    }
    await cancellable((signal) => turn(signal, userInput));
  };
  // A turn: one with the user's words, or (none) the stored conversation's resumed.
  const turn = async (signal: AbortSignal, userInput?: MessageContent) => {
    const result = await runChatTurn(session, {
      conversationId,
      model,
      signal,
      out,
      colors,
      spinner,
      verbose: session.settings.verbose,
      ...definedFields({ userInput }),
    });
    usage.add(result.usage.total, result.turns);
    if (result.waiting !== undefined) out.write(waitingLines(conversationId, result.waiting, colors));
  };
  // A conversation come back to: its requests still waiting are asked here and decided, and the
  // calls decided but never run (the process was killed) run, as a turn of their own.
  const continueWaiting = () =>
    cancellable(async (signal) => {
      await decidePendingApprovals(session, conversationId, say, colors);
      if (!signal.aborted && owesResume(await session.store.load(conversationId))) await turn(signal);
    });

  if (options.conversationId !== undefined && options.showHistory !== false)
    await showHistory(options.conversationId);
  if (terminal) say(colors.dim(`conversation ${conversationId} · /help for commands · Ctrl-C aborts a turn`));
  // A failure the user can act on is said in the chat, which goes on.
  const reported = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (!CairnError.is(error)) throw error;
      spinner.stop();
      say(colors.red(formatCliError(error)));
    }
  };
  const handleLine = (text: string) =>
    reported(() => (text.startsWith('/') ? handleSlash(text) : runTurn(text)));
  try {
    if (options.conversationId !== undefined && !exiting) await reported(continueWaiting);
    if (options.initialInput !== undefined && !exiting) {
      say(`${colors.bold(colors.cyan('› '))}${options.initialInput}`);
      await handleLine(options.initialInput);
    }
    if (!exiting) prompt();
    for (
      let next = exiting ? undefined : await nextLine();
      next !== undefined && !next.done;
      next = await nextLine()
    ) {
      const text = next.value.trim();
      if (text !== '') await handleLine(text);
      if (exiting) break;
      prompt();
    }
  } finally {
    spinner.stop();
    session.approver.setPrompt(undefined);
    process.off('SIGINT', interrupt);
    options.signal?.removeEventListener('abort', ended);
    rl.close();
    if (model !== session.model) await model.close();
  }
  // A chat left before its first message has nothing stored to come back to.
  if ((await session.store.load(conversationId, { limit: 1 })).length > 0) {
    say(colors.dim(`conversation saved: cairn chat --resume ${conversationId}`));
  }
  return interrupted ? 130 : 0;
}
