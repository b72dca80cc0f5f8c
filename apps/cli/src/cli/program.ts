import { readFileSync } from 'node:fs';
import { definedFields } from '@cairn/core';
import { Command, CommanderError, Option } from 'commander';
import { cliFailure } from '../cli-error.js';
import type { GlobalFlags } from '../config/cli-settings.js';
import type { CliIO } from '../io.js';
import { registerAgentCommands } from './agent-commands.js';
import { registerApprovalCommands } from './approval-commands.js';
import { closestCommand } from './closest-word.js';
import { createAction, isTerminal, safeId } from './command-action.js';
import { reportFailure } from './command-context.js';
import { registerConversationCommands } from './conversation-commands.js';
import { examples } from './help-examples.js';
import { registerRunCommands } from './run-commands.js';
import { reportUsageErrors } from './usage-errors.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

interface ChatFlags extends GlobalFlags {
  print?: string;
  json?: boolean;
  continue?: boolean;
  resume?: string;
  attach?: string[];
}

/**
 * The `cairn` command line. Every action returns an exit code through `setExit` instead of calling
 * `process.exit`, so the program runs in-process in tests; `signal` is what Ctrl-C aborts.
 */
export function createProgram(io: CliIO, signal: AbortSignal, setExit: (code: number) => void): Command {
  const program = new Command('cairn');
  const action = createAction(io, signal, setExit);

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
      new Option(
        '--approval <mode>',
        'run_command and other tools that need approval: ask (at a terminal; elsewhere the call waits for `cairn approvals`) | always | never (refuse)',
      ).choices(['ask', 'always', 'never']),
    )
    .option('-y, --yes', 'allow them without asking (same as --approval always)')
    .option('--no-color', 'no colours (also NO_COLOR, or when not a terminal)')
    .option('--verbose', 'full command output and diffs')
    .option('--plain', "the model's answers as raw text, no Markdown rendering (env CAIRN_PLAIN=1)")
    .option(
      '--mcp-config <file>',
      "MCP servers whose tools the model may use, in .mcp.json's mcpServers shape (repeatable; ./.mcp.json is read too)",
      (path: string, paths: string[] = []) => [...paths, path],
    )
    .option('--strict-mcp-config', 'use only the --mcp-config servers, not ./.mcp.json')
    .option(
      '--otel',
      'export OpenTelemetry traces and metrics over OTLP/HTTP (OTEL_EXPORTER_OTLP_*; env CAIRN_OTEL=1)',
    )
    .addHelpText('after', examples.root);

  program
    .command('chat', { isDefault: true })
    .description('chat with the model (the default command); -p for one prompt without a chat')
    .option('-p, --print <prompt>', 'answer one prompt and exit (for scripts)')
    .option('--json', 'with -p: print every AgentOutput event as a JSON line')
    .addOption(new Option('-c, --continue', 'continue the most recent conversation').conflicts('resume'))
    .option(
      '--attach <file>',
      'attach an image, PDF or text file to the first message (repeatable; also @path in a message)',
      (path: string, paths: string[] = []) => [...paths, path],
    )
    .option(
      '-r, --resume <id>',
      'continue a stored conversation',
      safeId('conversation id', 'cairn conversations list'),
    )
    // `cairn chat <words>` starts the chat with them; words after a bare `cairn` that name no
    // command land here too (chat is the default), and are a mistyped command, not a message.
    .argument('[words...]', 'with `cairn chat`: the first message')
    .addHelpText('after', examples.chat)
    .action(
      action(async (m, context, raw, words: string[]) => {
        const flags = raw as ChatFlags;
        const firstMessage = words.length > 0 ? words.join(' ') : undefined;
        if (firstMessage !== undefined && program.args[0] !== 'chat') {
          const meant = closestCommand(program, words[0] as string);
          throw cliFailure(
            'INVALID_ARGUMENT',
            `unknown command "${words[0]}"`,
            `${meant === undefined ? '' : `did you mean ${meant}? `}\`cairn --help\` lists the commands; to send a prompt use cairn -p "…" or cairn chat …`,
          );
        }
        if (firstMessage !== undefined && flags.print !== undefined) {
          throw cliFailure(
            'INVALID_ARGUMENT',
            'the prompt was given twice, with -p and as words',
            'use one: cairn -p "…" answers and exits, cairn chat … goes on chatting',
          );
        }
        if (flags.print?.trim() === '') {
          throw cliFailure('INVALID_ARGUMENT', '-p needs a prompt', 'cairn -p "What does this project do?"');
        }
        const { io: cio, colors } = context;
        // Read and checked before a model is resolved or the store opened: a bad file sends nothing.
        const attachments: Awaited<ReturnType<typeof m.readAttachment>>[] = [];
        for (const path of flags.attach ?? []) attachments.push(await m.readAttachment(path, cio.cwd));
        let conversationId: string | undefined;
        return m.withSession(
          context,
          async (session) => {
            if (flags.print !== undefined) {
              return m.runPrintCommand(session, cio, {
                prompt: m.withParts(flags.print, attachments),
                colors,
                errColors: context.errColors,
                signal: context.signal,
                ...definedFields({ json: flags.json, conversationId }),
              });
            }
            return m.runInteractiveChat(session, cio, {
              colors,
              attachments,
              signal: context.signal,
              ...definedFields({ initialInput: firstMessage, conversationId }),
            });
          },
          {
            interactive: flags.print === undefined && cio.stdin.isTTY === true && cio.stdout.isTTY === true,
            checkStore: async (store) => {
              conversationId = await m.conversationToContinue(store, flags);
            },
          },
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

  registerConversationCommands(program, action);
  registerApprovalCommands(program, action);
  registerRunCommands(program, action);
  registerAgentCommands(program, action);
  return program;
}

/** Parses `argv` (without node and the script) and runs the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIO, signal: AbortSignal): Promise<number> {
  let exitCode = 0;
  const program = createProgram(io, signal, (code) => {
    exitCode = code;
  });
  reportUsageErrors(program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with code 0; a command group's help without a command with 1.
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportFailure(error, io);
  }
  return exitCode;
}
