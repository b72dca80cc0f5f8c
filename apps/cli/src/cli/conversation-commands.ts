import { type Command, Option } from 'commander';
import type { ExportFormat } from '../commands/conversations-command.js';
import { type Action, positiveInt, safeId } from './command-action.js';
import { examples } from './help-examples.js';

/** `cairn conversations list|show|export|delete`. */
export function registerConversationCommands(program: Command, action: Action): void {
  const conversations = program.command('conversations').alias('convs').description('stored conversations');
  conversations
    .command('list')
    .description('the most recently updated conversations')
    .option('-n, --limit <n>', 'how many', positiveInt('--limit'), 20)
    .option('--json', 'one JSON object per line')
    .addHelpText('after', examples.conversationsList)
    .action(
      action(async (m, context, flags) =>
        m.withStore(context, (store) =>
          m.listConversations(
            { io: context.io, store, colors: context.colors },
            { limit: flags.limit as number, json: flags.json === true },
          ),
        ),
      ),
    );
  conversations
    .command('show')
    .argument('<id>', 'the conversation', safeId('conversation id', 'cairn conversations list'))
    .description('the conversation as the display view: tool calls merged with their results, diffs')
    .addHelpText('after', examples.conversationsShow)
    .action(
      action(async (m, context, _flags, id: string) =>
        m.withStore(context, (store) =>
          m.showConversation({ io: context.io, store, colors: context.colors }, id, {
            verbose: context.settings.verbose,
            plain: context.settings.plain,
          }),
        ),
      ),
    );
  conversations
    .command('export')
    .argument('<id>', 'the conversation', safeId('conversation id', 'cairn conversations list'))
    .description('the stored log as JSON lines or JSON, or the display view as Markdown')
    .addOption(
      new Option('--format <format>', 'jsonl | json | md').choices(['jsonl', 'json', 'md']).default('jsonl'),
    )
    .option('-o, --output <file>', 'write to a file instead of stdout (never over an existing one)')
    .option('--force', 'with -o: replace an existing file')
    .addHelpText('after', examples.conversationsExport)
    .action(
      action(async (m, context, flags, id: string) =>
        m.withStore(context, (store) =>
          m.exportConversation({ io: context.io, store, colors: context.colors }, id, {
            format: flags.format as ExportFormat,
            ...(typeof flags.output === 'string' ? { output: flags.output } : {}),
            force: flags.force === true,
          }),
        ),
      ),
    );
  conversations
    .command('delete')
    .argument('<id>', 'the conversation', safeId('conversation id', 'cairn conversations list'))
    .description('delete a conversation and its stored tool outputs (asks first)')
    // The global -y/--yes takes the flag wherever it is typed; named here so this --help says what it does here.
    .option('-y, --yes', 'delete without asking (needed when not at a terminal)')
    .addHelpText('after', examples.conversationsDelete)
    .action(
      action(async (m, context, flags, id: string) =>
        m.withStore(context, (store) =>
          m.deleteConversation({ io: context.io, store, colors: context.colors }, id, {
            yes: flags.yes === true,
            signal: context.signal,
          }),
        ),
      ),
    );
  conversations.addHelpText('after', examples.conversations);
}
