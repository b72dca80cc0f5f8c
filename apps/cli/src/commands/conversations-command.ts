import { writeFile } from 'node:fs/promises';
import { assertSafeId, type ConversationStore, definedFields } from '@cairn/core';
import { displayView, loadExistingConversation } from '../chat/conversation-history.js';
import { cliFailure } from '../cli-error.js';
import type { CliIO } from '../io.js';
import type { Colors } from '../render/colors.js';
import { conversationToMarkdown } from '../render/conversation-markdown.js';
import { formatStoredTime, plural } from '../render/format-numbers.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import { confirmKey } from '../session/confirm-key.js';

export type ExportFormat = 'jsonl' | 'md' | 'json';

interface ConversationsDeps {
  io: CliIO;
  store: ConversationStore;
  colors: Colors;
}

/** `cairn conversations list`: most recently updated first, `--limit` rows. */
export async function listConversations(
  deps: ConversationsDeps,
  options: { limit: number; json?: boolean },
): Promise<number> {
  const { io, store, colors } = deps;
  const rows = [];
  let cursor: string | undefined;
  do {
    const page = await store.listConversations({
      limit: Math.min(options.limit - rows.length, 100),
      ...definedFields({ cursor }),
    });
    rows.push(...page.conversations);
    cursor = page.nextCursor;
  } while (cursor !== undefined && rows.length < options.limit);
  if (options.json) {
    for (const row of rows) io.stdout.write(`${JSON.stringify(row)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.stdout.write(`${colors.dim('no conversations yet — start one with `cairn chat`')}\n`);
    return 0;
  }
  const width = Math.max(...rows.map((row) => row.id.length));
  for (const row of rows) {
    const when = formatStoredTime(row.updatedAt);
    const title = row.title === undefined ? '' : `  ${row.title}`;
    io.stdout.write(
      `${row.id.padEnd(width)}  ${colors.dim(`${when}  ${String(row.messageCount).padStart(4)} messages`)}${title}\n`,
    );
  }
  return 0;
}

/**
 * `cairn conversations show <id>`: the display view, tool calls merged with their results and diffs,
 * the answers rendered as Markdown on a terminal (unless `plain`), as the chat showed them.
 */
export async function showConversation(
  deps: ConversationsDeps,
  id: string,
  options: { verbose?: boolean; plain?: boolean } = {},
): Promise<number> {
  const { io, store, colors } = deps;
  const log = await loadExistingConversation(store, id);
  const markdown = markdownEnabled(io.stdout, { plain: options.plain === true });
  for (const message of displayView(log)) {
    io.stdout.write(
      renderDisplayMessage(message, {
        colors,
        markdown,
        ...definedFields({ verbose: options.verbose, width: io.stdout.columns }),
      }),
    );
  }
  return 0;
}

/** `cairn conversations export <id>`: the stored log as JSON lines or one JSON document, or the display view as Markdown. */
export async function exportConversation(
  deps: ConversationsDeps,
  id: string,
  options: { format: ExportFormat; output?: string; force?: boolean },
): Promise<number> {
  const log = await loadExistingConversation(deps.store, id);
  let text: string;
  switch (options.format) {
    case 'jsonl':
      text = log.map((message) => `${JSON.stringify(message)}\n`).join('');
      break;
    case 'json':
      text = `${JSON.stringify({ conversationId: id, messages: log }, null, 2)}\n`;
      break;
    case 'md':
      text = conversationToMarkdown(displayView(log), { title: id });
      break;
  }
  if (options.output === undefined) deps.io.stdout.write(text);
  else {
    try {
      // Never over an existing file unless asked: an export must not cost the user another file.
      await writeFile(options.output, text, { flag: options.force ? 'w' : 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw cliFailure(
        'INVALID_ARGUMENT',
        `cannot write ${options.output} (${code})`,
        code === 'EEXIST'
          ? 'pass --force to replace it, or choose another file'
          : 'choose a writable file path',
      );
    }
    deps.io.stderr.write(`wrote ${log.length} messages to ${options.output}\n`);
  }
  return 0;
}

/**
 * `cairn conversations delete <id>`: the conversation and its offloaded outputs. Without `yes` it
 * asks first at a terminal (one key: `y` deletes; anything else keeps it, exit code 1; Ctrl-C 130)
 * and refuses elsewhere: a script deletes only when it says so.
 */
export async function deleteConversation(
  deps: ConversationsDeps,
  id: string,
  options: { yes: boolean; signal?: AbortSignal },
): Promise<number> {
  const { io, colors } = deps;
  assertSafeId('conversation id', id);
  if (!options.yes) {
    const log = await loadExistingConversation(deps.store, id);
    if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
      throw cliFailure(
        'INVALID_ARGUMENT',
        `not deleting ${id}: there is no terminal to confirm it`,
        'pass --yes to delete it without asking',
      );
    }
    const updated = formatStoredTime(log.at(-1)?.createdAt ?? '');
    const answer = await confirmKey(
      io,
      `delete conversation ${colors.bold(id)} (${log.length} ${plural(log.length, 'message')}, updated ${updated})? ${colors.dim('[y/N]')} `,
      options.signal,
    );
    if (answer !== 'yes') {
      io.stdout.write(`kept ${id}\n`);
      return answer === 'interrupted' ? 130 : 1;
    }
  }
  if (!(await deps.store.deleteConversation(id))) {
    throw cliFailure(
      'STORE_NOT_FOUND',
      `there is no conversation "${id}"`,
      '`cairn conversations list` shows the ids',
    );
  }
  deps.io.stdout.write(`deleted ${id}\n`);
  return 0;
}
