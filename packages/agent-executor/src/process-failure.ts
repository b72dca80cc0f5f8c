import type { AgentRunError } from './agent-run-result.js';
import type { RunOutcome } from './run-outcome.js';
import type { AgentProcessExit } from './spawn-agent-process.js';
import type { StderrTail } from './stderr-tail.js';

// How much of stderr goes into an error message: its last lines, bounded.
const STDERR_LINES = 10;
const STDERR_CHARS = 2000;

export interface ProcessFailureInput {
  /** The CLI's label ("Claude Code"). */
  cliName: string;
  command: string;
  exit: AgentProcessExit;
  stderr: StderrTail;
  killGraceMs: number;
  /** The working directory was missing (spawn reports that as `ENOENT` too). */
  cwdMissing: boolean;
  cwd: string;
  /** What the CLI wrote after the abort and was not stored (`PostAbortFilter`). */
  discardedAfterAbort?: number;
}

// "; Claude Code did not stop on SIGINT within 300 ms: sent SIGTERM, then SIGKILL"
function escalation(cliName: string, exit: AgentProcessExit, graceMs: number): string {
  const [first, ...more] = exit.signalsSent;
  if (first === undefined || more.length === 0) return '';
  return `; ${cliName} did not stop on ${first} within ${graceMs} ms: sent ${more.join(', then ')}`;
}

function withStderr(message: string, stderr: StderrTail): string {
  const lines = stderr.lastLines(STDERR_LINES).join('\n');
  if (lines === '') return message;
  const tail = lines.length > STDERR_CHARS ? `…${lines.slice(-STDERR_CHARS)}` : lines;
  return `${message}:\n${tail}`;
}

/**
 * The failure of the process itself, or undefined when it exited with 0: could not start
 * (`AGENT_FAILED`), aborted by the caller (`LLM_ABORTED`), killed by a signal or a non-zero exit
 * (`AGENT_FAILED`, with the end of stderr).
 */
export function processFailure(input: ProcessFailureInput): AgentRunError | undefined {
  const { cliName, command, exit, stderr } = input;
  if (exit.aborted) {
    const discarded = input.discardedAfterAbort ?? 0;
    const dropped =
      discarded === 0
        ? ''
        : `; ${discarded} ${discarded === 1 ? 'item' : 'items'} ${cliName} wrote after the abort ${discarded === 1 ? 'was' : 'were'} not stored`;
    return {
      code: 'LLM_ABORTED',
      message: `The run was aborted${escalation(cliName, exit, input.killGraceMs)}${dropped}`,
    };
  }
  if (exit.spawnError !== undefined) {
    const { code, message } = exit.spawnError;
    if (input.cwdMissing) {
      return { code: 'AGENT_FAILED', message: `The working directory ${input.cwd} does not exist` };
    }
    if (code === 'ENOENT') {
      return {
        code: 'AGENT_FAILED',
        message: `${command} not found: install ${cliName} or pass the path of its executable as \`command\` (${message})`,
      };
    }
    return { code: 'AGENT_FAILED', message: `Could not start ${command}: ${message}` };
  }
  if (exit.signal !== null) {
    return { code: 'AGENT_FAILED', message: withStderr(`${cliName} was killed by ${exit.signal}`, stderr) };
  }
  if (exit.exitCode !== null && exit.exitCode !== 0) {
    return {
      code: 'AGENT_FAILED',
      message: withStderr(`${cliName} exited with code ${exit.exitCode}`, stderr),
    };
  }
  return undefined;
}

/**
 * A CLI that exited 0 without its final result line did not finish (Gemini CLI exits so on
 * SIGINT): a failure, never a success. Undefined when the result came, or the output already
 * reported why it failed (a fatal error, a cut line).
 */
export function missingResultFailure(cliName: string, outcome: RunOutcome): AgentRunError | undefined {
  if (outcome.resultSeen || outcome.reportedError !== undefined) return undefined;
  return {
    code: 'AGENT_FAILED',
    message: `${cliName} ended without a result: the agent CLI exited before writing its final result line, so the run did not finish`,
  };
}
