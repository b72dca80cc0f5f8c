import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { CairnError, type ConversationStore, definedFields } from '@cairn/core';
import { readAgentSession } from '@cairn/message-processor';

const PAGE_SIZE = 200;

export interface FindResumeSessionOptions {
  /**
   * Only sessions recorded in this working directory count: Claude Code and Gemini CLI keep their
   * sessions per directory and cannot resume one from another. A recorded cwd matches when it is
   * the same path (after `resolve`) or the same real directory (symbolic links resolved: Claude
   * Code reports its `process.cwd()`, the real path). A session recorded without a cwd matches.
   */
  cwd?: string;
}

async function realPathOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/** Whether a recorded cwd is the directory `cwd`; each recorded path is resolved once. */
async function directoryMatcher(cwd: string): Promise<(recorded: string) => Promise<boolean>> {
  const wanted = new Set([resolve(cwd)]);
  const real = await realPathOrUndefined(cwd);
  if (real !== undefined) wanted.add(real);
  const seen = new Map<string, Promise<boolean>>();
  return (recorded) => {
    // A relative path says nothing about where it was (the recording process's cwd is unknown).
    if (!isAbsolute(recorded)) return Promise.resolve(false);
    if (wanted.has(resolve(recorded))) return Promise.resolve(true);
    let match = seen.get(recorded);
    if (match === undefined) {
      match = realPathOrUndefined(recorded).then((path) => path !== undefined && wanted.has(path));
      seen.set(recorded, match);
    }
    return match;
  };
}

/**
 * The agent session to resume: the newest `providerMetadata[provider].sessionId` in the stored log
 * (recorded in `options.cwd` when given), read from the end a page at a time (a long conversation is
 * not loaded whole). Undefined when no message of that provider names a session.
 *
 * With `cwd`, an older session recorded there is taken over newer ones recorded elsewhere; when
 * sessions exist but none was recorded in `cwd`, it throws `INVALID_ARGUMENT` naming the directory
 * of the newest one (resuming it from `cwd` would fail in the CLI).
 */
export async function findResumeSession(
  store: ConversationStore,
  conversationId: string,
  provider: string,
  options: FindResumeSessionOptions = {},
): Promise<string | undefined> {
  const matches = options.cwd === undefined ? undefined : await directoryMatcher(options.cwd);
  let elsewhere: { sessionId: string; cwd: string } | undefined;
  let toSeq: number | undefined;
  for (;;) {
    const page = await store.load(conversationId, {
      direction: 'backward',
      limit: PAGE_SIZE,
      ...definedFields({ toSeq }),
    });
    for (const message of page) {
      const session = readAgentSession(message, provider);
      if (session?.sessionId === undefined) continue;
      const { sessionId, cwd } = session;
      if (matches === undefined || cwd === undefined || (await matches(cwd))) return sessionId;
      elsewhere ??= { sessionId, cwd };
    }
    const oldest = page.at(-1)?.seq;
    if (page.length < PAGE_SIZE || oldest === undefined || oldest <= 1) break;
    toSeq = oldest - 1;
  }
  if (elsewhere === undefined) return undefined;
  throw new CairnError(
    'INVALID_ARGUMENT',
    `Conversation ${conversationId} has no ${provider} session recorded in ${options.cwd}: its latest one ` +
      `(${elsewhere.sessionId}) was recorded in ${elsewhere.cwd}, and the CLI resumes only sessions of its ` +
      `working directory. Run the executor with cwd ${elsewhere.cwd} to continue it, or run without resume.`,
    { details: { conversationId, provider, sessionId: elsewhere.sessionId, sessionCwd: elsewhere.cwd } },
  );
}
