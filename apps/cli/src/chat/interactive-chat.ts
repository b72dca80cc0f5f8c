import { createInterface } from 'node:readline/promises';
import { describeModel, type ResolvedModel } from '@cairn/connect';
import { CairnError, type FilePart, type ImagePart, isMediaPart, type MessageContent } from '@cairn/core';
import { lineWithAttachments } from '../attachments/message-with-attachments.js';
import { formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import { attachmentLabel } from '../render/attachment-label.js';
import type { Colors } from '../render/colors.js';
import { formatCount, formatStoredTime } from '../render/format-numbers.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import { createSpinner } from '../render/spinner.js';
import type { CliSession } from '../session/open-session.js';
import { terminalApprovalPrompt } from '../session/terminal-approval.js';
import { newChatId } from './chat-ids.js';
import { displayView, loadExistingConversation } from './conversation-history.js';
import { parseModelTarget, switchModel } from './model-switch.js';
import { chatAgent, runChatTurn } from './run-chat-turn.js';
import { parseSlashCommand, slashHelp } from './slash-commands.js';
import { UsageTotals } from './usage-totals.js';

// Two Ctrl-C this close together end the program.
const DOUBLE_INTERRUPT_MS = 2000;
const HISTORY_SHOWN = 20;

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
    const view = displayView(await loadExistingConversation(session.store, id), session.workspace);
    const shown = view.slice(-HISTORY_SHOWN);
    if (shown.length < view.length) say(colors.dim(`… ${view.length - shown.length} earlier messages`));
    const markdown = markdownEnabled(out, session.settings);
    for (const message of shown)
      out.write(
        renderDisplayMessage(message, {
          colors,
          verbose: session.settings.verbose,
          markdown,
          width: out.columns,
        }),
      );
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
        return;
      case 'conversations': {
        const page = await session.store.listConversations({ limit: 15 });
        for (const summary of page.conversations) {
          const current = summary.id === conversationId ? colors.green(' (current)') : '';
          say(
            `  ${summary.id}  ${colors.dim(`${formatStoredTime(summary.updatedAt)} · ${summary.messageCount} messages`)}${current}`,
          );
        }
        if (page.conversations.length === 0) say(colors.dim('  no conversations yet'));
        return;
      }
      case 'model': {
        if (command.argument !== undefined) {
          const next = await switchModel(parseModelTarget(command.argument, model), session, model, io.env);
          if (model !== session.model && model !== next) await model.close();
          model = next;
        }
        say(describeModel(model));
        return;
      }
      case 'compress': {
        const controller = new AbortController();
        running = controller;
        spinner.start('compressing the conversation…');
        try {
          const result = await session.runtime.compress({
            conversationId,
            model: model.adapter,
            signal: controller.signal,
            ...chatAgent(session),
          });
          spinner.stop();
          say(
            result.compressed === false
              ? colors.dim(
                  `${result.reason ?? 'nothing was compressed'} (${formatCount(result.tokensBefore)} tokens)`,
                )
              : `context: ${formatCount(result.tokensBefore)} → ${formatCount(result.tokensAfter)} tokens (${result.steps.join(', ')})`,
          );
        } finally {
          spinner.stop();
          running = undefined;
        }
        return;
      }
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
    const controller = new AbortController();
    running = controller;
    try {
      const result = await runChatTurn(session, {
        conversationId,
        userInput,
        model,
        signal: controller.signal,
        out,
        colors,
        spinner,
        verbose: session.settings.verbose,
      });
      usage.add(result.usage.total, result.turns);
    } finally {
      running = undefined;
    }
  };

  if (options.conversationId !== undefined && options.showHistory !== false)
    await showHistory(options.conversationId);
  if (terminal) say(colors.dim(`conversation ${conversationId} · /help for commands · Ctrl-C aborts a turn`));
  const handleLine = async (text: string) => {
    try {
      if (text.startsWith('/')) await handleSlash(text);
      else await runTurn(text);
    } catch (error) {
      if (!CairnError.is(error)) throw error;
      spinner.stop();
      say(colors.red(formatCliError(error)));
    }
  };
  try {
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
