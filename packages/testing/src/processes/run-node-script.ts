import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { definedFields } from '@cairn/core';

export interface NodeScriptRun {
  code: number | null;
  /** The signal that ended the process, when one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** What the child has printed so far. */
export interface NodeScriptOutput {
  stdout: string;
  stderr: string;
}

export interface RunNodeScriptOptions {
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Written to stdin, which is then closed (closed at once when absent). */
  input?: string;
  /** Killed (SIGKILL) and rejected after this long; default 60 s. */
  timeoutMs?: number;
  /**
   * Called after each chunk of output, with the child: a test can act mid-run (send a signal,
   * close the pipe it reads) once the output shows the moment it waits for.
   */
  onOutput?: (output: NodeScriptOutput, child: ChildProcessWithoutNullStreams) => void;
}

/**
 * Runs `node <script> <args>` as a real child process to its end, collecting its output: how
 * end-to-end tests run a built binary exactly as a user would.
 */
export function runNodeScript(
  script: string,
  args: readonly string[],
  options: RunNodeScriptOptions,
): Promise<NodeScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: options.env,
      ...definedFields({ cwd: options.cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const seen = () => options.onOutput?.({ stdout, stderr }, child);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      seen();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      seen();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    // A child that exits without reading its input must not fail the run.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
