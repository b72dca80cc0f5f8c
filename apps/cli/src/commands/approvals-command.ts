import { approvalStatus, type ConversationStore, type JsonValue, readToolLedger } from '@cairn/core';
import type { ApprovalView } from '@cairn/runtime';
import { runIdOfConversation } from '@cairn/runtime';
import { loadExistingConversation } from '../chat/conversation-history.js';
import { runChatTurn } from '../chat/run-chat-turn.js';
import type { CliIO } from '../io.js';
import { decideCommands, describeApprovalRequest, describeDecision } from '../render/approval-text.js';
import type { Colors } from '../render/colors.js';
import { CLI_DECIDER } from '../session/approver.js';
import type { CliSession } from '../session/open-session.js';
import { approvalFailure } from './approval-failure.js';
import { reportOneShot } from './print-command.js';
import { continueRun } from './runs-command.js';

/** `cairn approvals list <conversationId>`: every request, oldest first, and where it stands. */
export async function listApprovals(
  deps: { io: CliIO; store: ConversationStore; colors: Colors },
  conversationId: string,
  options: { json?: boolean },
): Promise<number> {
  const { io, colors } = deps;
  const now = new Date();
  const log = await loadExistingConversation(deps.store, conversationId);
  const views: ApprovalView[] = readToolLedger(log).approvals.map((entry) => ({
    ...entry,
    status: approvalStatus(entry, now),
  }));
  if (options.json) {
    for (const view of views) io.stdout.write(`${JSON.stringify(view)}\n`);
    return 0;
  }
  if (views.length === 0) io.stdout.write(`${colors.dim('no approval requests in this conversation')}\n`);
  for (const view of views) {
    const where = view.decision !== undefined ? describeDecision(view.decision) : colors.yellow(view.status);
    io.stdout.write(`${view.id}  ${where}  ${describeApprovalRequest(view.request)}\n`);
    if (view.status === 'pending') {
      const commands = decideCommands(conversationId, view.id);
      io.stdout.write(`${colors.dim(`    ${commands.approve}  ·  ${commands.deny}`)}\n`);
    }
  }
  return 0;
}

export interface DecideApprovalOptions {
  conversationId: string;
  approvalId: string;
  decision: 'approve' | 'deny';
  /** approve only: run the call with this input instead (an `edit` decision). */
  input?: JsonValue;
  /** deny only: why, told to the model. */
  reason?: string;
}

interface DecideDeps {
  session: CliSession;
  io: CliIO;
  colors: Colors;
  errColors: Colors;
  signal?: AbortSignal;
}

/**
 * `cairn approvals approve|deny <conversationId> <approvalId>`: stores the request's one decision
 * (as the person at this terminal, `local`), then resumes the conversation, its answer printed as
 * `-p` prints one. A request decided already (by anyone, in any process) is `APPROVAL_ALREADY_DECIDED`
 * and nothing runs.
 */
export async function decideApproval(deps: DecideDeps, options: DecideApprovalOptions): Promise<number> {
  const { session, io, errColors } = deps;
  const { conversationId, approvalId } = options;
  const edited = options.input !== undefined;
  const decision = await session.runtime.approvals
    .decide({
      conversationId,
      approvalId,
      decision: edited ? 'edit' : options.decision,
      ...(edited ? { input: options.input } : {}),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      decidedBy: CLI_DECIDER,
    })
    .catch((error: unknown) => {
      throw approvalFailure(error, conversationId, approvalId);
    });
  io.stderr.write(`${errColors.dim(`${approvalId}: ${describeDecision(decision)}`)}\n`);
  // A workflow run's conversation goes on as the run's next turn.
  const runId = runIdOfConversation(conversationId);
  if (runId !== undefined) return continueRun(deps, { runId });
  const result = await runChatTurn(session, {
    conversationId,
    out: io.stdout,
    colors: deps.colors,
    verbose: session.settings.verbose,
    showErrors: false,
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  });
  return reportOneShot(result, io, { conversationId, errColors, signal: deps.signal });
}
