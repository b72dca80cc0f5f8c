import type { ResolvedModel } from '@cairn/connect';
import type { Colors } from '../render/colors.js';
import { formatCount } from '../render/format-numbers.js';
import type { CliSession } from '../session/open-session.js';
import { chatAgent } from './run-chat-turn.js';

/** `/compress`: compresses the conversation now; the line that says what it came to. */
export async function compressNow(
  session: CliSession,
  options: { conversationId: string; model: ResolvedModel; signal: AbortSignal; colors: Colors },
): Promise<string> {
  const result = await session.runtime.compress({
    conversationId: options.conversationId,
    model: options.model.adapter,
    signal: options.signal,
    ...chatAgent(session),
  });
  if (result.compressed === false) {
    return options.colors.dim(
      `${result.reason ?? 'nothing was compressed'} (${formatCount(result.tokensBefore)} tokens)`,
    );
  }
  return `context: ${formatCount(result.tokensBefore)} → ${formatCount(result.tokensAfter)} tokens (${result.steps.join(', ')})`;
}
