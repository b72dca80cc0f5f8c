import type { CommandOutputDetails } from '@cairn/core';
import { CodeBlock } from './code-block.js';

/** "exit code 2", or how a command without one ended. */
export function exitCodeLabel(exitCode: number | null): string {
  return exitCode === null ? 'no exit code' : `exit code ${exitCode}`;
}

/** What a command printed: stdout, then stderr (in red), then how it ended. */
export function CommandOutputView({ output }: { output: CommandOutputDetails }) {
  const stdout = output.stdout.trimEnd();
  const stderr = output.stderr.trimEnd();
  return (
    <div class="command-output">
      <CodeBlock label="Command output">
        {stdout}
        {stdout !== '' && stderr !== '' && '\n'}
        {stderr !== '' && <span class="stderr">{stderr}</span>}
        {stdout === '' && stderr === '' && <span class="muted">(no output)</span>}
      </CodeBlock>
      <p class={`exit-line ${output.exitCode === 0 ? 'ok' : 'failed'}`}>{exitCodeLabel(output.exitCode)}</p>
    </div>
  );
}
