import { definedFields } from '@cairn/core';
import { type Command, Option } from 'commander';
import { isAgentChoice } from '../agent/agent-clis.js';
import { cliFailure } from '../cli-error.js';
import { type Action, safeId } from './command-action.js';
import { examples } from './help-examples.js';

/** `cairn agent claude|gemini|codex|qwen` and `cairn convert`: the agent CLIs and their transcripts. */
export function registerAgentCommands(program: Command, action: Action): void {
  program
    .command('agent <cli> <prompt>')
    .description(
      'run Claude Code (claude), Gemini CLI (gemini), Codex CLI (codex) or Qwen Code (qwen) and store its work as a conversation',
    )
    .option('--cwd <dir>', 'the directory the agent works in (default: the current one)')
    .option('--resume', "continue the agent's own session (the latest, or --conversation's)")
    .option(
      '--conversation <id>',
      'the conversation to add the run to',
      safeId('conversation id', 'cairn conversations list'),
    )
    .option(
      '--command <path>',
      'the executable (default claude / gemini / codex / qwen; env CAIRN_<CLAUDE|GEMINI|CODEX|QWEN>_COMMAND)',
    )
    .option('--json', 'print every AgentOutput event as a JSON line')
    .addHelpText('after', examples.agent)
    .action(
      action(async (m, context, flags, cli: string, prompt: string) => {
        if (!isAgentChoice(cli))
          throw cliFailure(
            'INVALID_ARGUMENT',
            `unknown agent CLI "${cli}"`,
            'use `cairn agent claude|gemini|codex|qwen …`',
          );
        return m.withStore(context, (store) =>
          m.runAgentCommand(
            {
              agent: cli,
              prompt,
              cwd: typeof flags.cwd === 'string' ? flags.cwd : context.io.cwd,
              resume: flags.resume === true,
              json: flags.json === true,
              verbose: context.settings.verbose,
              plain: context.settings.plain,
              ...(typeof flags.conversation === 'string' ? { conversationId: flags.conversation } : {}),
              ...(typeof flags.command === 'string' ? { command: flags.command } : {}),
              // Only an explicit --model: a chat model from the environment or config means nothing to the agent CLI.
              ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
            },
            { io: context.io, store, colors: context.colors, signal: context.signal },
          ),
        );
      }),
    );

  program
    .command('convert [file]')
    .description('turn a saved Claude Code / Gemini CLI transcript (stream-json) into Cairn messages')
    .addOption(
      new Option('--from <format>', 'the transcript format')
        .choices(['claude-code', 'gemini-cli'])
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--view <view>', 'log: messages as stored; display: tool calls merged with results')
        .choices(['log', 'display'])
        .default('log'),
    )
    .addOption(new Option('--format <format>', 'jsonl | md').choices(['jsonl', 'md']).default('jsonl'))
    .option('--cwd <dir>', 'the directory the agent ran in: paths under it are shown relative')
    .addHelpText('after', examples.convert)
    .action(
      action(async (m, context, flags, file: string | undefined) =>
        m.runConvertCommand(
          {
            from: flags.from as 'claude-code' | 'gemini-cli',
            view: flags.view as 'log' | 'display',
            format: flags.format as 'jsonl' | 'md',
            ...(typeof flags.cwd === 'string' ? { cwd: flags.cwd } : {}),
            ...definedFields({ file }),
          },
          { io: context.io },
        ),
      ),
    );
}
