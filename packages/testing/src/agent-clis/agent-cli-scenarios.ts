import type { MockServerProvider } from '../mock-servers/mock-provider-protocol.js';
import type { ScriptFault, ScriptToolCall, ScriptTurn } from '../script-turn.js';

/**
 * A tool call a scenario makes, in terms every agent CLI has: each CLI's dialect names the tool
 * and shapes its input (`Write {file_path}` for Claude Code, `write_file {file_path}` for Gemini
 * CLI). `native` is a call only one CLI knows (Claude Code's `TaskCreate`, `Agent`), passed as is.
 */
export type ScenarioAction =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'edit'; path: string; oldText: string; newText: string }
  | { kind: 'shell'; command: string }
  | { kind: 'read'; path: string }
  | { kind: 'native'; name: string; input: Record<string, unknown> };

/** How one CLI names and shapes the scenario actions. Paths arrive absolute (the CLI's cwd joined). */
export interface AgentCliToolDialect {
  toolCall(action: ScenarioAction, cwd: string): ScriptToolCall;
}

/** What a scenario turn is chosen by; `attempt` counts earlier requests for the same turn (retries). */
export interface ScenarioTurnContext {
  /** Assistant/model messages after the user message carrying the marker. */
  turn: number;
  attempt: number;
  /** The messages (Claude) or contents (Gemini) the request carried. */
  messageCount: number;
  /** Which API answers (a mock provider's wire): scenarios differ where vendors' errors differ (529 vs 503). */
  wire: MockServerProvider;
  /** The task tool Claude Code offers: `TaskCreate` by default, `TodoWrite` with `CLAUDE_CODE_ENABLE_TASKS=0`. */
  todoTool: 'TaskCreate' | 'TodoWrite';
  /**
   * The request's last message as JSON (`''` when there is none): its tool results carry ids the
   * CLI made up (a background task's), which a later turn may have to name.
   */
  lastMessage: string;
}

/** One model reply of a scenario, with actions in place of wire tool calls. */
export interface ScenarioTurn extends Omit<ScriptTurn, 'toolCalls'> {
  actions?: ScenarioAction[];
}

/** A scripted model: its turns by position; `undefined` when the script has no such turn. */
export interface AgentCliScenario {
  name: string;
  description: string;
  turn(context: ScenarioTurnContext): ScenarioTurn | undefined;
}

const shell = (command: string): ScenarioAction => ({ kind: 'shell', command });

/** A scenario whose turns do not depend on the context. */
const fixed = (name: string, description: string, turns: ScenarioTurn[]): AgentCliScenario => ({
  name,
  description,
  turn: ({ turn }) => turns[turn],
});

// A short Retry-After keeps Claude Code's backoff short. Gemini CLI takes a retry delay only from
// quota errors (it would turn the 503 into one), so it gets none and retries at its own pace.
const serverError = (wire: ScenarioTurnContext['wire']): ScriptFault =>
  wire === 'anthropic' ? { status: 529, retryAfterMs: 100 } : { status: 503 };

const scenarios: AgentCliScenario[] = [
  fixed('main', 'write, edit, list, read a missing file, answer', [
    {
      text: "I'll create hello.txt first.",
      actions: [{ kind: 'write', path: 'hello.txt', content: 'Hello, world!\nSecond line.\n' }],
    },
    {
      text: 'Now I will edit the greeting.',
      actions: [{ kind: 'edit', path: 'hello.txt', oldText: 'Hello, world!', newText: 'Hello, Cairn!' }],
    },
    { actions: [shell('ls -la')] },
    {
      text: 'Let me read a file that does not exist.',
      actions: [{ kind: 'read', path: 'does-not-exist.txt' }],
    },
    { text: 'Done: hello.txt now greets Cairn, and does-not-exist.txt is missing as expected.' },
  ]),
  {
    name: 'resume2',
    description: 'a resumed session: says how much history it got, reads hello.txt',
    turn: ({ turn, messageCount }) =>
      [
        {
          text: `This request carried ${messageCount} messages. Reading hello.txt again.`,
          actions: [shell('cat hello.txt')],
        },
        { text: 'hello.txt still greets Cairn.' },
      ][turn],
  },
  fixed('deny', 'a write the CLI is not allowed to make', [
    {
      text: 'I will write the secret file.',
      actions: [{ kind: 'write', path: 'secret.txt', content: 'hush\n' }],
    },
    { text: 'I was not allowed to write secret.txt.' },
  ]),
  fixed('bigout', 'a command printing 78,894 bytes', [
    { text: 'Printing the numbers.', actions: [shell('seq 1 15000')] },
    { text: 'Printed 15000 numbers.' },
  ]),
  {
    name: 'apierr',
    description: 'a 500 retried to success, then server errors on every attempt',
    turn: ({ turn, attempt, wire }) => {
      if (turn === 0) return { text: 'Step one.', actions: [shell('echo one')] };
      if (turn === 1) {
        return attempt === 0
          ? { fault: { status: 500 } }
          : { text: 'Step two.', actions: [shell('echo two')] };
      }
      return turn === 2 ? { fault: serverError(wire) } : undefined;
    },
  },
  fixed('err400', 'a request the API refuses with 400', [
    { text: 'Step one.', actions: [shell('echo one')] },
    { fault: { status: 400, message: 'mock: this request is invalid' } },
  ]),
  fixed('sleep', 'a 30 s command, for aborts', [
    { text: 'Waiting a while.', actions: [shell('sleep 30')] },
    { text: 'Slept.' },
  ]),
  // Qwen Code refuses `sleep 30` (and `sleep 30 && …`) as a blocking command to run in the background.
  fixed('sleep-python', 'a 30 s command that is not a plain sleep, for aborts', [
    { text: 'Waiting a while.', actions: [shell("python3 -c 'import time; time.sleep(30)'")] },
    { text: 'Slept.' },
  ]),
  fixed('sleepwrite', 'a 30 s command, then a write that must not happen after an abort', [
    { text: 'Waiting a while.', actions: [shell('sleep 30')] },
    {
      text: 'Writing after the wait.',
      actions: [{ kind: 'write', path: 'after-abort.txt', content: 'written after the abort\n' }],
    },
    { text: 'Wrote after-abort.txt.' },
  ]),
  {
    name: 'todo',
    description: 'a task list entry, then a sub-agent (scenario sub)',
    turn: ({ turn, todoTool }) =>
      [
        {
          text: 'Planning the work.',
          actions: [
            todoTool === 'TaskCreate'
              ? {
                  kind: 'native' as const,
                  name: 'TaskCreate',
                  input: {
                    subject: 'Write hello.txt',
                    description: 'Create the greeting file',
                    activeForm: 'Writing hello.txt',
                  },
                }
              : {
                  kind: 'native' as const,
                  name: 'TodoWrite',
                  input: {
                    todos: [
                      { content: 'Write hello.txt', status: 'in_progress', activeForm: 'Writing hello.txt' },
                      {
                        content: 'List the directory',
                        status: 'pending',
                        activeForm: 'Listing the directory',
                      },
                    ],
                  },
                },
          ],
        },
        {
          text: 'Asking a sub-agent to list the directory.',
          actions: [
            {
              kind: 'native' as const,
              name: 'Agent',
              input: {
                description: 'List the directory',
                prompt: 'List the files in the working directory and report them. [scenario:sub]',
                subagent_type: 'general-purpose',
              },
            },
          ],
        },
        { text: 'The sub-agent listed the directory.' },
      ][turn],
  },
  {
    name: 'tasks',
    description: 'every task tool: create, get, list, update, then a background command read and stopped',
    turn: ({ turn, lastMessage }) => {
      const task = (name: string, input: Record<string, unknown>): ScenarioTurn => ({
        actions: [{ kind: 'native', name, input }],
      });
      // The background command's id, as the Bash result ("… with ID: <id>") or TaskOutput gives it.
      const backgroundId =
        /(?:with ID: |<task_id>|"task_id\\?":\s*\\?")([A-Za-z0-9]+)/.exec(lastMessage)?.[1] ?? 'unknown';
      return [
        task('TaskCreate', {
          subject: 'Write hello.txt',
          description: 'Create the greeting file',
          activeForm: 'Writing hello.txt',
        }),
        task('TaskGet', { taskId: '1' }),
        task('TaskList', {}),
        task('TaskUpdate', { taskId: '1', status: 'completed' }),
        task('Bash', {
          command: 'sleep 30',
          description: 'Sleep in the background',
          run_in_background: true,
        }),
        task('TaskOutput', { task_id: backgroundId, block: false, timeout: 1000 }),
        task('TaskStop', { task_id: backgroundId }),
        { text: 'Every task tool was used.' },
      ][turn];
    },
  },
  fixed('sub', 'the sub-agent of scenario todo', [
    { text: 'Listing.', actions: [shell('ls -la')] },
    { text: 'The directory is listed above.' },
  ]),
  {
    // The script of the Codex CLI and Qwen Code main fixtures: scenario main with shorter texts, and
    // reasoning first where the wire is the Responses API.
    name: 'main-short',
    description: 'scenario main with short texts; reasoning first on the Responses API',
    turn: ({ turn, wire }) =>
      [
        {
          ...(wire === 'openai-responses' ? { reasoning: 'Create the file first.' } : {}),
          text: 'Creating hello.txt.',
          actions: [{ kind: 'write' as const, path: 'hello.txt', content: 'Hello, world!\nSecond line.\n' }],
        },
        {
          text: 'Editing it.',
          actions: [
            { kind: 'edit' as const, path: 'hello.txt', oldText: 'Hello, world!', newText: 'Hello, Cairn!' },
          ],
        },
        { actions: [shell('ls -la')] },
        { text: 'Reading a missing file.', actions: [{ kind: 'read' as const, path: 'does-not-exist.txt' }] },
        { text: 'Done: hello.txt says Hello, Cairn!' },
      ][turn],
  },
  fixed('think', 'reasoning before text and a write', [
    {
      reasoning: 'The user wants a greeting file. I will write hello.txt.',
      text: 'Writing hello.txt.',
      actions: [{ kind: 'write', path: 'hello.txt', content: 'Hello, world!\n' }],
    },
    { reasoning: 'The file is written; I can answer.', text: 'hello.txt is written.' },
  ]),
  fixed('parallel', 'two tool calls in one message', [
    {
      text: 'Listing and reading at once.',
      actions: [shell('ls -la'), { kind: 'read', path: 'missing.txt' }],
    },
    { text: 'The directory is listed and missing.txt does not exist.' },
  ]),
];

/**
 * The scenarios of `fixtures/real-cli-2/README.md` (the issue's shared capture notes), by name.
 * Extend with `{ ...agentCliScenarios, mine }`: the prompt's `[scenario:NAME]` marker selects one.
 */
export const agentCliScenarios: Record<string, AgentCliScenario> = Object.fromEntries(
  scenarios.map((scenario) => [scenario.name, scenario]),
);
