import type { ConversationStore } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { exitCodeFor, formatCliError } from '../cli-error.js';
import { type CliSettings, type GlobalFlags, resolveCliSettings } from '../config/cli-settings.js';
import type { CliIO } from '../io.js';
import { describeModel } from '../model/resolve-model.js';
import { type Colors, colorEnabled, createColors } from '../render/colors.js';
import { describeApprovalRequest } from '../session/approver.js';
import {
  type CliSession,
  openSession,
  openSettingsStore,
  type SessionOptions,
} from '../session/open-session.js';

/** What an action needs: the IO, the settings from flags/env/config, colours, and a Ctrl-C signal. */
export interface CommandContext {
  io: CliIO;
  settings: CliSettings;
  /** Colours for stdout. */
  colors: Colors;
  /** Colours for stderr, decided on its own: `cairn -p … 2>log` keeps escape codes out of the file. */
  errColors: Colors;
  /** Aborted by Ctrl-C (SIGINT) in non-interactive commands. */
  signal: AbortSignal;
}

export function commandContext(flags: GlobalFlags, io: CliIO, signal: AbortSignal): CommandContext {
  const settings = resolveCliSettings(flags, io.env, io.cwd);
  return {
    io,
    settings,
    colors: createColors(colorEnabled(io.stdout, io.env, settings.color)),
    errColors: createColors(colorEnabled(io.stderr, io.env, settings.color)),
    signal,
  };
}

/**
 * Opens a session (model, store, runtime), prints which model is used and why, runs `work`, and
 * always closes the store and any demo server.
 */
export async function withSession(
  context: CommandContext,
  work: (session: CliSession) => Promise<number>,
  options: Omit<SessionOptions, 'onRefused'> & { quiet?: boolean } = {},
): Promise<number> {
  const { io, errColors: colors } = context;
  const { quiet, ...sessionOptions } = options;
  const session = await openSession(context.settings, io, {
    ...sessionOptions,
    onRefused: (request) =>
      io.stderr.write(
        `${colors.yellow(`refused ${describeApprovalRequest(request)} — nobody to ask; allow commands with --yes or --approval always`)}\n`,
      ),
  });
  try {
    if (!quiet) {
      io.stderr.write(
        `${session.model.demo ? colors.yellow(describeModel(session.model)) : colors.dim(describeModel(session.model))}\n`,
      );
      if (session.model.demo || session.workspace !== io.cwd)
        io.stderr.write(`${colors.dim(`workspace: ${session.workspace}`)}\n`);
    }
    return await work(session);
  } finally {
    await session.close();
  }
}

/** Runs `work` with just the store (listing, showing, exporting need no model). */
export async function withStore(
  context: CommandContext,
  work: (store: ConversationStore) => Promise<number>,
): Promise<number> {
  const store = openSettingsStore(context.settings);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** A failure as one line on stderr and its exit code; anything that is not a CairnError is a bug and keeps its stack. */
export function reportFailure(error: unknown, io: CliIO): number {
  if (CairnError.is(error)) {
    io.stderr.write(`${formatCliError(error)}\n`);
    return exitCodeFor(error);
  }
  io.stderr.write(
    `cairn: unexpected error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 1;
}
