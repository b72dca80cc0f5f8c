import { CairnError } from '@cairn/core';
import { exitCodeFor, formatCliError } from '../cli-error.js';
import { type CliSettings, type GlobalFlags, resolveCliSettings } from '../config/cli-settings.js';
import type { CliIO } from '../io.js';
import { type Colors, colorEnabled, createColors } from '../render/colors.js';

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
