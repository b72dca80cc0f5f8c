import { findResumeSession } from '@cairn/agent-executor';
import { CairnError, type ConversationStore } from '@cairn/core';
import { cliFailure } from '../cli-error.js';
import type { AgentChoice, AgentCli } from './agent-clis.js';

// The executor names the conversations it starts `agent-<uuid>`; other conversations are not looked into.
const AGENT_CONVERSATION_PREFIX = 'agent-';

/**
 * The most recently updated agent conversation with a session of `cli` recorded in `cwd` (the CLIs
 * resume only sessions of their working directory). `INVALID_ARGUMENT` when there is none, naming
 * the directory of the newest one recorded elsewhere.
 */
export async function findResumableConversation(
  store: ConversationStore,
  agent: AgentChoice,
  cli: AgentCli,
  cwd: string,
): Promise<string> {
  const { provider, name } = cli.definition;
  let elsewhere: { conversationId: string; cwd: string } | undefined;
  let cursor: string | undefined;
  do {
    const page = await store.listConversations(cursor === undefined ? {} : { cursor });
    for (const { id } of page.conversations) {
      if (!id.startsWith(AGENT_CONVERSATION_PREFIX)) continue;
      try {
        if ((await findResumeSession(store, id, provider, { cwd })) !== undefined) return id;
      } catch (error) {
        // Sessions of this CLI, all recorded in another directory.
        const sessionCwd = CairnError.is(error) ? error.details?.sessionCwd : undefined;
        if (typeof sessionCwd !== 'string') throw error;
        elsewhere ??= { conversationId: id, cwd: sessionCwd };
      }
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);

  if (elsewhere === undefined) {
    throw cliFailure(
      'INVALID_ARGUMENT',
      `there is no ${name} conversation to resume`,
      `start one with \`cairn agent ${agent} "<prompt>"\``,
    );
  }
  throw cliFailure(
    'INVALID_ARGUMENT',
    `there is no ${name} conversation to resume in ${cwd}`,
    `the latest one (${elsewhere.conversationId}) ran in ${elsewhere.cwd}: add \`--cwd ${elsewhere.cwd}\``,
  );
}
