import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { cliFailure } from '../cli-error.js';
import type { ExportFormat } from '../commands/conversations-command.js';
import type { GlobalFlags } from '../config/cli-settings.js';
import type { CliIO } from '../io.js';
import { type CommandContext, commandContext, reportFailure } from './command-context.js';
import { examples } from './help-examples.js';

// The commands (the runtime, the stores, the SDKs…) load when one runs, so --help and --version are quick.
const load = () => import('./command-modules.js');
type CommandModules = Awaited<ReturnType<typeof load>>;

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const positiveInt = (name: string) => (value: string) => {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw cliFailure('INVALID_ARGUMENT', `${name} must be a positive integer, got "${value}"`);
  return number;
};

// Someone at a terminal to answer questions: both ends of the conversation are a TTY.
const isTerminal = ({ io }: CommandContext) => io.stdin.isTTY === true && io.stdout.isTTY === true;

interface ChatFlags extends GlobalFlags {
  print?: string;
  json?: boolean;
  continue?: boolean;
  resume?: string;
}

/**
 * The `cairn` command line. Every action returns an exit code through `setExit` instead of calling
 * `process.exit`, so the program runs in-process in tests; `signal` is what Ctrl-C aborts.
 */
export function createProgram(io: CliIO, signal: AbortSignal, setExit: (code: number) => void): Command {
  const program = new Command('cairn');
  // Each action: build the context from every option (global ones included), run, report.
  const action =
    <A extends unknown[]>(
      run: (
        m: CommandModules,
        context: CommandContext,
        flags: Record<string, unknown>,
        ...args: A
      ) => Promise<number>,
    ) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const flags = command.optsWithGlobals();
      try {
        const context = commandContext(flags as GlobalFlags, io, signal);
        setExit(await run(await load(), context, flags, ...(args.slice(0, -2) as A)));
      } catch (error) {
        setExit(reportFailure(error, io));
      }
    };

  program
    .description('Persistent, provider-neutral conversations with tool-using LLM agents.')
    .version(VERSION, '-V, --version')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride()
    .showSuggestionAfterError()
    .option('--provider <name>', 'openai | anthropic | gemini | openai-compatible (env CAIRN_PROVIDER)')
    .option('-m, --model <id>', 'the model id (env CAIRN_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible API root ending in /v1 (env OPENAI_BASE_URL)')
    .option('--api-key <key>', 'the provider key, when not in its environment variable')
    .option(
      '--data-dir <dir>',
      'where conversations are stored (env CAIRN_DATA_DIR; default ~/.local/share/cairn)',
    )
    .addOption(
      new Option('--store <kind>', 'the store (env CAIRN_STORE)').choices(['fs', 'sqlite', 'postgres']),
    )
    .option('--database-url <url>', 'PostgreSQL for --store postgres (env DATABASE_URL)')
    .option('--config <file>', 'the config file (env CAIRN_CONFIG; default ./cairn.config.json)')
    .option('--workspace <dir>', 'the directory the tools may touch (default: the current one)')
    .addOption(
      new Option('--approval <mode>', 'run_command: ask | always | never').choices([
        'ask',
        'always',
        'never',
      ]),
    )
    .option('-y, --yes', 'allow run_command without asking (same as --approval always)')
    .option('--no-color', 'no colours (also NO_COLOR, or when not a terminal)')
    .option('--verbose', 'full command output and diffs')
    .addHelpText('after', examples.root);

  program
    .command('chat', { isDefault: true })
    .description('chat with the model (the default command); -p for one prompt without a chat')
    .option('-p, --print <prompt>', 'answer one prompt and exit (for scripts)')
    .option('--json', 'with -p: print every AgentOutput event as a JSON line')
    .addOption(new Option('-c, --continue', 'continue the most recent conversation').conflicts('resume'))
    .option('-r, --resume <id>', 'continue a stored conversation')
    // Words after `cairn` that name no command land here (chat is the default): say so.
    .argument('[words...]')
    .addHelpText('after', examples.chat)
    .action(
      action(async (m, context, raw, words: string[]) => {
        const flags = raw as ChatFlags;
        if (words.length > 0) {
          throw cliFailure(
            'INVALID_ARGUMENT',
            `unknown command "${words[0]}"`,
            '`cairn --help` lists the commands; to send a prompt use cairn -p "…"',
          );
        }
        const { io: cio, colors } = context;
        return m.withSession(
          context,
          async (session) => {
            let conversationId = flags.resume;
            if (conversationId !== undefined) await m.loadExistingConversation(session.store, conversationId);
            if (flags.continue) {
              conversationId = await m.latestChatId(session.store);
              if (conversationId === undefined)
                throw cliFailure(
                  'STORE_NOT_FOUND',
                  'there is no conversation to continue',
                  'start one with `cairn chat`',
                );
            }
            if (flags.print !== undefined) {
              return m.runPrintCommand(session, cio, {
                prompt: flags.print,
                colors,
                errColors: context.errColors,
                signal: context.signal,
                ...(flags.json === undefined ? {} : { json: flags.json }),
                ...(conversationId === undefined ? {} : { conversationId }),
              });
            }
            return m.runInteractiveChat(session, cio, {
              colors,
              ...(conversationId === undefined ? {} : { conversationId }),
            });
          },
          { interactive: flags.print === undefined && cio.stdin.isTTY === true && cio.stdout.isTTY === true },
        );
      }),
    );

  program
    .command('demo')
    .description(
      'a tour of a sample workspace: read, edit (with its diff), list, a failing command, an answer',
    )
    .addHelpText('after', examples.demo)
    .action(
      action(async (m, context) =>
        m.withSession(
          context,
          (session) =>
            m.runDemoCommand(session, context.io, {
              colors: context.colors,
              errColors: context.errColors,
              signal: context.signal,
            }),
          { demoTour: true, interactive: isTerminal(context) },
        ),
      ),
    );

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
    .command('show <id>')
    .description('the conversation as the display view: tool calls merged with their results, diffs')
    .addHelpText('after', examples.conversationsShow)
    .action(
      action(async (m, context, _flags, id: string) =>
        m.withStore(context, (store) =>
          m.showConversation({ io: context.io, store, colors: context.colors }, id, {
            verbose: context.settings.verbose,
          }),
        ),
      ),
    );
  conversations
    .command('export <id>')
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
    .command('delete <id>')
    .description('delete a conversation and its stored tool outputs')
    .addHelpText('after', examples.conversationsDelete)
    .action(
      action(async (m, context, _flags, id: string) =>
        m.withStore(context, (store) =>
          m.deleteConversation({ io: context.io, store, colors: context.colors }, id),
        ),
      ),
    );
  conversations.addHelpText('after', examples.conversations);

  const workflow = program.command('workflow').description('workflow runs (run mode)');
  workflow
    .command('run <file>')
    .description('start a run of the workflow in a YAML or JSON file')
    .option('--workflow <id>', 'which workflow, when the file is a package of several')
    .option('-i, --input <text>', 'what the run is asked to do')
    .option('--run-id <id>', 'the run id (default: generated)')
    .addHelpText('after', examples.workflow)
    .action(
      action(async (m, context, flags, path: string) => {
        const file = await m.readWorkflowFile(path, flags.workflow as string | undefined);
        return m.withSession(
          context,
          (session) =>
            m.runWorkflowFile(
              {
                session,
                io: context.io,
                colors: context.colors,
                errColors: context.errColors,
                signal: context.signal,
              },
              {
                file,
                ...(typeof flags.input === 'string' ? { input: flags.input } : {}),
                ...(typeof flags.runId === 'string' ? { runId: flags.runId } : {}),
              },
            ),
          { workflows: [file.pkg], interactive: isTerminal(context) },
        );
      }),
    );

  const runs = program.command('runs').description('workflow runs in the store');
  runs
    .command('list')
    .option('-n, --limit <n>', 'how many', positiveInt('--limit'), 20)
    .option('--json', 'one JSON run state per line')
    .description('runs, most recently updated first')
    .addHelpText('after', examples.runsList)
    .action(
      action(async (m, context, flags) =>
        m.withStore(context, (store) =>
          m.listRuns(
            { store, io: context.io, colors: context.colors },
            { limit: flags.limit as number, json: flags.json === true },
          ),
        ),
      ),
    );
  runs
    .command('show <runId>')
    .description('where a run stands, and its conversation')
    .addHelpText('after', examples.runsShow)
    .action(
      action(async (m, context, _flags, runId: string) =>
        m.withStore(context, (store) =>
          m.showRun(
            { store, io: context.io, colors: context.colors, verbose: context.settings.verbose },
            runId,
          ),
        ),
      ),
    );
  runs
    .command('continue <runId>')
    .description('the next turn of a run, from where the store says it is (after any restart)')
    .option('-i, --input <text>', 'your reply to the run')
    .addHelpText('after', examples.runsContinue)
    .action(
      action(async (m, context, flags, runId: string) =>
        m.withSession(
          context,
          (session) =>
            m.continueRun(
              {
                session,
                io: context.io,
                colors: context.colors,
                errColors: context.errColors,
                signal: context.signal,
              },
              { runId, ...(typeof flags.input === 'string' ? { input: flags.input } : {}) },
            ),
          { interactive: isTerminal(context) },
        ),
      ),
    );
  runs.addHelpText('after', examples.runs);

  program
    .command('agent <cli> <prompt>')
    .description('run Claude Code (claude) or Gemini CLI (gemini) and store its work as a conversation')
    .option('--cwd <dir>', 'the directory the agent works in (default: the current one)')
    .option('--resume', "continue the agent's own session (the latest, or --conversation's)")
    .option('--conversation <id>', 'the conversation to add the run to')
    .option(
      '--command <path>',
      'the executable (default claude / gemini; env CAIRN_CLAUDE_COMMAND / CAIRN_GEMINI_COMMAND)',
    )
    .option('--json', 'print every AgentOutput event as a JSON line')
    .addHelpText('after', examples.agent)
    .action(
      action(async (m, context, flags, cli: string, prompt: string) => {
        if (cli !== 'claude' && cli !== 'gemini')
          throw cliFailure(
            'INVALID_ARGUMENT',
            `unknown agent CLI "${cli}"`,
            'use `cairn agent claude …` or `cairn agent gemini …`',
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
            ...(file === undefined ? {} : { file }),
          },
          { io: context.io },
        ),
      ),
    );

  return program;
}

/** Parses `argv` (without node and the script) and runs the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIO, signal: AbortSignal): Promise<number> {
  let exitCode = 0;
  const program = createProgram(io, signal, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with code 0; usage errors with 1, reported as 2.
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportFailure(error, io);
  }
  return exitCode;
}
