import type { AgentOutputOf, ConversationMessage, ProviderMetadata } from '@cairn/core';

/** The agent session a message came from, as the processor records it in `providerMetadata`. */
export interface AgentSessionInfo {
  /** The metadata namespace: the `provider` of the session's `session_start` (`claude-code`, `gemini-cli`). */
  provider: string;
  sessionId?: string;
  cwd?: string;
}

/**
 * `providerMetadata` naming the session, so a later run can resume it and paths can be shown
 * relative. Frozen: the messages of a session share it.
 */
export function agentSessionMetadata(session: AgentSessionInfo): ProviderMetadata {
  const entry: Record<string, string> = {};
  if (session.sessionId !== undefined) entry.sessionId = session.sessionId;
  if (session.cwd !== undefined) entry.cwd = session.cwd;
  return Object.freeze({ [session.provider]: Object.freeze(entry) });
}

/**
 * The agent session recorded on a message: of `provider` when given, else the first namespace that
 * names a session id or cwd.
 */
export function readAgentSession(
  message: ConversationMessage,
  provider?: string,
): AgentSessionInfo | undefined {
  const metadata = message.providerMetadata;
  if (metadata === undefined) return undefined;
  const namespaces = provider === undefined ? Object.keys(metadata) : [provider];
  for (const namespace of namespaces) {
    const entry = metadata[namespace];
    if (entry === undefined) continue;
    const { sessionId, cwd } = entry;
    if (typeof sessionId !== 'string' && typeof cwd !== 'string') continue;
    // Built field by field: a spread before more fields is slow in V8.
    const session: AgentSessionInfo = { provider: namespace };
    if (typeof sessionId === 'string') session.sessionId = sessionId;
    if (typeof cwd === 'string') session.cwd = cwd;
    return session;
  }
  return undefined;
}

/** The session a `session_start` event names (`cwd`, when given, over the event's). */
export function agentSessionOfStart(
  event: AgentOutputOf<'session_start'>,
  cwd: string | undefined,
): AgentSessionInfo | undefined {
  if (event.provider === undefined) return undefined;
  const sessionCwd = cwd ?? event.cwd;
  // Built field by field, in the order of `{ provider, ...definedFields({ sessionId, cwd }) }`.
  const session: AgentSessionInfo = { provider: event.provider };
  if (event.sessionId !== undefined) session.sessionId = event.sessionId;
  if (sessionCwd !== undefined) session.cwd = sessionCwd;
  return session;
}
