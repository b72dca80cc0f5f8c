import { createGeminiCliConverter } from '@cairn/agent-cli/gemini-cli';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentPermissionMode } from './agent-permissions.js';
import { geminiStyleCliArgs } from './gemini-style-cli-args.js';
import { createGeminiCliStderrConverter } from './stderr-retry-events.js';

const APPROVAL_MODES: Readonly<Record<AgentPermissionMode, string>> = {
  // Headless, the default mode removes the mutating tools that are not allowed.
  'read-only': 'default',
  edit: 'auto_edit',
  full: 'yolo',
};

/**
 * Gemini CLI in headless mode: `gemini --prompt=<prompt> --output-format stream-json`.
 *
 * Resume: `--resume` (`-r`) takes nothing or `latest` (the most recent session of the project), an
 * index from `--list-sessions`, or a full session UUID — the `session_id` of the `init` line,
 * which is what the executor passes (an index or `latest` would race with other runs in the same
 * directory). Sources: google-gemini/gemini-cli `docs/cli/session-management.md`
 * (https://geminicli.com/docs/cli/session-management) and its yargs option in
 * `packages/cli/src/config/config.ts` (`resume`, alias `r`, a string; `--resume` alone → latest).
 * It is written `--resume=<id>` (yargs reads `--option=value`), so the id can never be taken for
 * another option; the executor checks it (`RESUME_SESSION_ID_PATTERN`) as well.
 *
 * The prompt is the `--prompt` (`-p`) option, not a positional argument: with `--resume`, Gemini CLI
 * took the prompt only from `-p` or stdin (google-gemini/gemini-cli#14180). It is written
 * `--prompt=<prompt>` so a prompt starting with `-` stays the option's value instead of being read
 * as another flag.
 *
 * Retries: Gemini CLI logs its API retries only on stderr ("Attempt 2 failed with status 503.
 * Retrying with backoff…"); `createStderrConverter` reads them as `retry` events.
 *
 * Abort: `gemini` re-launches itself as a child and forwards no signal (0.61.0), so it runs with
 * `GEMINI_CLI_NO_RELAUNCH` and gets SIGINT, on which it exits (0, without a result line).
 */
export const geminiCli: AgentCliDefinition = {
  name: 'Gemini CLI',
  provider: 'gemini-cli',
  defaultCommand: 'gemini',
  ...geminiStyleCliArgs({ modelFlag: '-m', approvalModes: APPROVAL_MODES }),
  stop: { signal: 'SIGINT' },
  env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
  createConverter: () => createGeminiCliConverter(),
  createStderrConverter: () => createGeminiCliStderrConverter(),
};
