import type { ConversationStore } from '@cairn/core';
import type { OutputStream } from '../io.js';
import type { Colors } from '../render/colors.js';
import { formatStoredTime } from '../render/format-numbers.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import type { CliSession } from '../session/open-session.js';
import { displayView, loadExistingConversation } from './conversation-history.js';

const HISTORY_SHOWN = 20;
const CONVERSATIONS_SHOWN = 15;

/** The end of a stored conversation as the chat shows it (`/resume`, `--resume`), and how much is left out. */
export async function historyText(
  session: Pick<CliSession, 'store' | 'workspace' | 'settings'>,
  conversationId: string,
  out: OutputStream,
  colors: Colors,
): Promise<string> {
  const view = displayView(await loadExistingConversation(session.store, conversationId), session.workspace);
  const shown = view.slice(-HISTORY_SHOWN);
  const earlier =
    shown.length < view.length ? `${colors.dim(`… ${view.length - shown.length} earlier messages`)}\n` : '';
  const markdown = markdownEnabled(out, session.settings);
  const options = { colors, verbose: session.settings.verbose, markdown, width: out.columns };
  return earlier + shown.map((message) => renderDisplayMessage(message, options)).join('');
}

/** `/conversations`: the most recent ones, the current one marked. */
export async function recentConversationsText(
  store: ConversationStore,
  currentId: string,
  colors: Colors,
): Promise<string> {
  const page = await store.listConversations({ limit: CONVERSATIONS_SHOWN });
  if (page.conversations.length === 0) return `${colors.dim('  no conversations yet')}\n`;
  return page.conversations
    .map((summary) => {
      const current = summary.id === currentId ? colors.green(' (current)') : '';
      return `  ${summary.id}  ${colors.dim(`${formatStoredTime(summary.updatedAt)} · ${summary.messageCount} messages`)}${current}\n`;
    })
    .join('');
}
