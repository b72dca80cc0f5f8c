import type { Command } from 'commander';
import { parseEditedInput } from '../commands/approval-failure.js';
import type { DecideApprovalOptions } from '../commands/approvals-command.js';
import { type Action, type CommandModules, safeId } from './command-action.js';
import type { CommandContext } from './command-context.js';
import { examples } from './help-examples.js';

const conversationArgument = safeId('conversation id', 'cairn conversations list');
const approvalArgument = safeId('approval id', 'cairn approvals list <conversationId>');

/** `cairn approvals list|approve|deny`: requests stored by turns nobody could answer at once. */
export function registerApprovalCommands(program: Command, action: Action): void {
  const approvals = program
    .command('approvals')
    .description('tool calls waiting for approval in a stored conversation, decided once from here');
  approvals
    .command('list')
    .argument('<conversationId>', 'the conversation', conversationArgument)
    .option('--json', 'one JSON object per request')
    .description('every approval request of the conversation, oldest first, and where it stands')
    .addHelpText('after', examples.approvalsList)
    .action(
      action(async (m, context, flags, id: string) =>
        m.withStore(context, (store) =>
          m.listApprovals({ io: context.io, store, colors: context.colors }, id, {
            json: flags.json === true,
          }),
        ),
      ),
    );
  approvals
    .command('approve')
    .argument('<conversationId>', 'the conversation', conversationArgument)
    .argument('<approvalId>', 'the request (`cairn approvals list` shows it)', approvalArgument)
    .option('--input <json>', 'run the call with this input instead (JSON; checked by the tool)')
    .description('allow the call (once), then go on with the conversation')
    .addHelpText('after', examples.approvalsApprove)
    .action(
      action(async (m, context, flags, conversationId: string, approvalId: string) => {
        // A bad --input is refused before a model is resolved or the store opened.
        const input = typeof flags.input === 'string' ? parseEditedInput(flags.input) : undefined;
        return decide(m, context, {
          conversationId,
          approvalId,
          decision: 'approve',
          ...(input === undefined ? {} : { input }),
        });
      }),
    );
  approvals
    .command('deny')
    .argument('<conversationId>', 'the conversation', conversationArgument)
    .argument('<approvalId>', 'the request (`cairn approvals list` shows it)', approvalArgument)
    .option('--reason <text>', 'why, told to the model')
    .description('refuse the call, then go on with the conversation (the model is told)')
    .addHelpText('after', examples.approvalsDeny)
    .action(
      action(async (m, context, flags, conversationId: string, approvalId: string) =>
        decide(m, context, {
          conversationId,
          approvalId,
          decision: 'deny',
          ...(typeof flags.reason === 'string' ? { reason: flags.reason } : {}),
        }),
      ),
    );
  approvals.addHelpText('after', examples.approvals);
}

// Decides in a session (the resumed turn needs the model and the tools); an unknown conversation
// fails before the model is announced.
function decide(m: CommandModules, context: CommandContext, options: DecideApprovalOptions): Promise<number> {
  const { io, colors, errColors, signal } = context;
  return m.withSession(
    context,
    (session) => m.decideApproval({ session, io, colors, errColors, signal }, options),
    {
      checkStore: async (store) => {
        await m.conversationToContinue(store, { resume: options.conversationId });
      },
    },
  );
}
