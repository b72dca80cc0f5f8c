import type { Tool } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { toolFailure } from '../tool-failure.js';
import { commandEnvironment } from './command-environment.js';
import { statIfExists } from './file-system.js';
import { KILL_GRACE_MS } from './process-tree.js';
import { runShellCommand, type ShellCommandOutcome } from './run-shell-command.js';
import { openWorkspace } from './workspace.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';

const runCommandInput = z.object({
  command: z.string().min(1).describe('The command line, run by /bin/sh (cmd.exe on Windows).'),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The directory to run it in: relative to the workspace root, or absolute inside it. Default: the root.',
    ),
});

export type RunCommandInput = z.output<typeof runCommandInput>;

/** How a command ended, shaped like Claude Code's Bash result so displays show its output and exit code. */
export interface RunCommandResult {
  stdout: string;
  stderr: string;
  /** Null when it was killed by a signal or stopped. */
  exitCode: number | null;
  /** The signal that killed it. */
  signal?: string;
  /** It was stopped: out of time, or the call was cancelled. */
  interrupted?: true;
}

/** What the model reads of the output: stdout, then stderr under a marker. */
function outputText({ stdout, stderr }: RunCommandResult): string {
  const parts = [stdout.trimEnd(), stderr.trimEnd() === '' ? '' : `[stderr]\n${stderr.trimEnd()}`];
  const text = parts.filter((part) => part !== '').join('\n');
  return text === '' ? '(no output)' : text;
}

function headlineOf(outcome: ShellCommandOutcome, timeoutMs: number): string {
  if (outcome.stoppedBy === 'timeout') return `Command timed out after ${timeoutMs / 1000} s and was stopped`;
  if (outcome.stoppedBy === 'abort') return 'Command was cancelled and stopped';
  if (outcome.exitCode === null) return `Command was killed by ${outcome.signal ?? 'a signal'}`;
  return `Exit code ${outcome.exitCode}`;
}

/** `run_command`: runs a shell command in the workspace; a failure keeps its output. */
export function createRunCommandTool(
  options: WorkspaceToolsOptions = {},
): Tool<RunCommandInput, RunCommandResult> {
  const { commandTimeoutMs, maxCommandOutputBytes, runCommandNeedsApproval, inheritSecretEnv } =
    workspaceToolLimits(options);
  return defineTool({
    name: 'run_command',
    description:
      'Runs a shell command in the workspace (its root, or cwd) and returns its stdout and stderr. ' +
      `It is stopped after ${commandTimeoutMs / 1000} s; stdin is closed, so it must not wait for input. ` +
      'Long output keeps its start and end. A non-zero exit code makes the call fail, with the output.',
    category: 'shell',
    input: runCommandInput,
    needsApproval: runCommandNeedsApproval,
    // Past the command's own limit, so its stop (and the output so far) is what the model sees.
    timeoutMs: commandTimeoutMs + 3 * KILL_GRACE_MS,
    async execute({ command, cwd = '.' }, context): Promise<RunCommandResult> {
      const workspace = await openWorkspace(options.root, context);
      const directory = await workspace.resolve(cwd);
      if (!(await statIfExists(directory.absolute))?.isDirectory()) {
        throw new CairnError('TOOL_FAILED', `${directory.relative} is not a directory of the workspace.`);
      }
      let outcome: ShellCommandOutcome;
      try {
        outcome = await runShellCommand({
          command,
          cwd: directory.absolute,
          env: commandEnvironment(process.env, options.commandEnv, inheritSecretEnv),
          timeoutMs: commandTimeoutMs,
          maxOutputBytes: maxCommandOutputBytes,
          signal: context.signal,
        });
      } catch (error) {
        throw new CairnError('TOOL_FAILED', `Could not start the command: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const result: RunCommandResult = {
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        exitCode: outcome.exitCode,
        ...(outcome.signal === null ? {} : { signal: outcome.signal }),
        ...(outcome.stoppedBy === undefined ? {} : { interrupted: true }),
      };
      if (outcome.stoppedBy === undefined && outcome.exitCode === 0) return result;
      const code = outcome.stoppedBy === 'timeout' ? 'TOOL_TIMEOUT' : 'TOOL_FAILED';
      throw toolFailure(`${headlineOf(outcome, commandTimeoutMs)}\n${outputText(result)}`, result, code);
    },
    toModelOutput: outputText,
  });
}
