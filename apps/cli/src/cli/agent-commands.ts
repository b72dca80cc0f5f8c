import { AGENT_PERMISSION_MODES, type AgentPermissionMode, AllowedToolSchema } from '@cairn/agent-executor';
import { definedFields } from '@cairn/core';
import { type Command, Option } from 'commander';
import { isAgentChoice } from '../agent/agent-clis.js';
import { cliFailure } from '../cli-error.js';
import { type Action, safeId } from './command-action.js';
import { examples } from './help-examples.js';

// Each becomes an argument of the agent CLI: a tool name with an optional rule, never an option.
const allowedTool = (tool: string, tools: string[] = []) => {
  const checked = AllowedToolSchema.safeParse(tool);
  if (!checked.success)
    throw cliFailure(
      'INVALID_ARGUMENT',
      `--allow ${JSON.stringify(tool)}: ${checked.error.issues[0]?.message ?? 'not a tool name'}`,
      'name one tool per --allow, as the agent CLI spells it: --allow Read --allow "Bash(npm test)"',
    );
  return [...tools, tool];
};

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
    .addOption(
      new Option(
        '--permissions <mode>',
        'what the agent may do without asking: read-only (read and search; edits and commands refused), ' +
          'edit (also edit files), full (everything: Claude Code bypassPermissions, Gemini CLI yolo)',
      )
        .choices(AGENT_PERMISSION_MODES)
        .default('read-only'),
    )
    .addOption(new Option('--yolo', 'the same as --permissions full').conflicts('permissions'))
    .option(
      '--allow <tool>',
      "a tool the agent may use without asking, in the CLI's own syntax (repeatable): Bash(npm test), run_shell_command(git)",
      allowedTool,
    )
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
              permissions: {
                mode: flags.yolo === true ? 'full' : (flags.permissions as AgentPermissionMode),
                ...(Array.isArray(flags.allow) ? { allowedTools: flags.allow as string[] } : {}),
              },
              // Only an explicit --model: a chat model from the environment or config means nothing to the agent CLI.
              ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
            },
            {
              io: context.io,
              store,
              colors: context.colors,
              signal: context.signal,
              otel: context.settings.otel,
            },
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
