import type { Command, CommanderError } from 'commander';
import { cliFailure } from '../cli-error.js';

// Commander ends with these when it printed what was asked for (help, the version), not a failure.
const NOT_FAILURES = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

const commandPath = (command: Command): string =>
  command.parent === null ? command.name() : `${commandPath(command.parent)} ${command.name()}`;

// "Expected 1 argument but got 2." after the problem: one clause of it, not a second sentence.
const asClause = (sentence: string) =>
  sentence.charAt(0).toLowerCase() + sentence.slice(1).replace(/\.$/, '');

/**
 * Commander's usage error in `command` ("error: unknown option '--x'\n(Did you mean --y?)") as an
 * `INVALID_ARGUMENT` failure: the problem, and a fix with commander's suggestion and the `--help`
 * that shows what is valid there.
 */
function usageFailure(error: CommanderError, command: Command): Error {
  const [message = '', suggestion] = error.message.replace(/^error: /, '').split('\n');
  const [problem = message, ...details] = message.split('. ');
  const help = `\`${commandPath(command)} --help\``;
  // A command's help lists its own options; the global ones (--model, --data-dir…) are the root's.
  const globalOptions = command.parent === null ? '' : ', `cairn --help` the global ones';
  const shows =
    error.code === 'commander.unknownOption'
      ? `${help} lists its options${globalOptions}`
      : error.code === 'commander.unknownCommand'
        ? `${help} lists the commands`
        : `${help} shows the usage`;
  const didYouMean = suggestion?.replace(/^\((.*)\)$/, '$1');
  return cliFailure(
    'INVALID_ARGUMENT',
    details.length === 0 ? problem : `${problem}: ${asClause(details.join('. '))}`,
    didYouMean === undefined ? shows : `${didYouMean} ${shows}`,
  );
}

/**
 * Makes commander's usage errors, in `command` and every command under it, failures like any
 * other: thrown as `INVALID_ARGUMENT`, printed as one `cairn: …` line by the caller. Commander
 * prints nothing of its own for them; help and the version still end as `CommanderError`s.
 */
export function reportUsageErrors(command: Command): void {
  // Each command keeps the output settings it was made with: silence its own copy.
  command.configureOutput({ outputError: () => {} });
  command.exitOverride((error) => {
    throw NOT_FAILURES.has(error.code) ? error : usageFailure(error, command);
  });
  for (const subcommand of command.commands) reportUsageErrors(subcommand);
}
