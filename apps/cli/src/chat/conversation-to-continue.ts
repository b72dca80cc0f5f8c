import type { ConversationStore } from '@cairn/core';
import { cliFailure } from '../cli-error.js';
import { latestChatId } from './chat-ids.js';

/**
 * The stored conversation `--resume ID` or `--continue` names (undefined: a new one), checked once
 * the store is open and before the session is announced, so an unknown id is the command's only line.
 */
export async function conversationToContinue(
  store: ConversationStore,
  flags: { resume?: string; continue?: boolean },
): Promise<string | undefined> {
  if (flags.resume !== undefined) {
    if ((await store.load(flags.resume, { limit: 1 })).length === 0)
      throw cliFailure(
        'STORE_NOT_FOUND',
        `there is no conversation "${flags.resume}"`,
        '`cairn conversations list` shows the ids',
      );
    return flags.resume;
  }
  if (flags.continue !== true) return undefined;
  const latest = await latestChatId(store);
  if (latest === undefined)
    throw cliFailure(
      'STORE_NOT_FOUND',
      'there is no conversation to continue',
      'start one with `cairn chat`',
    );
  return latest;
}
