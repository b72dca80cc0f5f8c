import { CairnError } from '../errors/cairn-error.js';
import type { ConversationStore } from './conversation-store.js';

/** The longest `search` of `listConversations`, in characters. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * Throws `UNSUPPORTED_OPERATION` unless the store claims `capabilities.search`: a store written
 * before search existed would ignore the option and list everything, which looks like a result.
 */
export function assertStoreSearches(store: Pick<ConversationStore, 'capabilities'>): void {
  if (store.capabilities.search === true) return;
  throw new CairnError('UNSUPPORTED_OPERATION', 'This conversation store cannot search conversations', {
    details: { operation: 'listConversations.search' },
  });
}
