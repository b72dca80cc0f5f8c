import { assertSafeId, CairnError } from '@cairn/core';
import type { Command } from 'commander';
import { cliFailure } from '../cli-error.js';
import type { GlobalFlags } from '../config/cli-settings.js';
import type { CliIO } from '../io.js';
import { type CommandContext, commandContext, reportFailure } from './command-context.js';

// The commands (the runtime, the stores, the SDKs…) load when one runs, so --help and --version are quick.
const load = () => import('./command-modules.js');
export type CommandModules = Awaited<ReturnType<typeof load>>;

/** Runs a command: the lazily loaded modules, the context from every option (global ones included), the flags, the arguments. */
export type ActionBody<A extends unknown[]> = (
  m: CommandModules,
  context: CommandContext,
  flags: Record<string, unknown>,
  ...args: A
) => Promise<number>;

/** Wraps an action body into a commander handler that reports failures and sets the exit code. */
export type Action = <A extends unknown[]>(run: ActionBody<A>) => (...args: unknown[]) => Promise<void>;

export function createAction(io: CliIO, signal: AbortSignal, setExit: (code: number) => void): Action {
  return (run) =>
    async (...args) => {
      const command = args[args.length - 1] as Command;
      const flags = command.optsWithGlobals();
      try {
        const context = commandContext(flags as GlobalFlags, io, signal);
        setExit(await run(await load(), context, flags, ...(args.slice(0, -2) as never)));
      } catch (error) {
        setExit(reportFailure(error, io));
      }
    };
}

export const positiveInt = (name: string) => (value: string) => {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw cliFailure('INVALID_ARGUMENT', `${name} must be a positive integer, got "${value}"`);
  return number;
};

/**
 * An id argument or option (`kind` names it in the error), checked while the command line is parsed:
 * a bad one is refused before a model is resolved or a store is opened (or created).
 */
export const safeId = (kind: string, listing: string) => (value: string) => {
  try {
    assertSafeId(kind, value);
  } catch (error) {
    if (!CairnError.is(error)) throw error;
    throw new CairnError(error.code, error.message, {
      details: { ...error.details, fix: `\`${listing}\` shows them` },
    });
  }
  return value;
};

// Someone at a terminal to answer questions: both ends of the conversation are a TTY.
export const isTerminal = ({ io }: CommandContext) => io.stdin.isTTY === true && io.stdout.isTTY === true;
