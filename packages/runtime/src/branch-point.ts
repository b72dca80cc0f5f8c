import { activeBranch, CairnError, type ConversationStore } from '@cairn/core';

/** Refuses, before anything is stored, a branch that would not replace a user message of the conversation as it stands. */
export async function assertBranchPoint(
  store: ConversationStore,
  conversationId: string,
  branchFrom: number,
): Promise<void> {
  const replaced = activeBranch(await store.load(conversationId)).find(
    (message) => message.seq === branchFrom,
  );
  if (replaced?.role === 'user') return;
  throw new CairnError(
    'INVALID_ARGUMENT',
    `branchFrom: seq ${branchFrom} is not a user message of conversation ${conversationId} as it stands (an edit or regeneration replaces one)`,
    { details: { conversationId, branchFrom } },
  );
}
