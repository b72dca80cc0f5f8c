import type { AgentCliPermissions } from './agent-cli-definition.js';
import type { ScenarioTurnContext } from './agent-cli-scenarios.js';

/** A signal sent during the run. */
export interface AgentCliInterrupt {
  signal: 'SIGINT' | 'SIGTERM';
  /**
   * `group`: the CLI's whole process group, as Ctrl-C in a terminal does. `process`: the CLI's
   * own process only, as `child.kill()` of a program that spawned it does.
   */
  target: 'group' | 'process';
  /** Sent this long after stdout first contains `afterStdout`. */
  afterStdout: string;
  delayMs: number;
}

/** One recorded run: `fixtures/real/<cli>/<fixture>.jsonl`. */
export interface AgentCliFixturePlan {
  fixture: string;
  scenario: string;
  prompt: string;
  permissions: AgentCliPermissions;
  /** Extra environment variables for this run. */
  env?: Record<string, string>;
  todoTool?: ScenarioTurnContext['todoTool'];
  /** Continue the session of this earlier fixture of the same CLI (same `HOME` and cwd). */
  resumes?: string;
  interrupt?: AgentCliInterrupt;
  /** Where the run differs from a user's (shortened retries, …) or takes long; goes into the manifest. */
  note?: string;
  /** The run's time limit when the default (180 s) is too short. */
  timeoutMs?: number;
  /** Also keep the CLI's stderr, as `<fixture>.stderr.txt` (Gemini CLI reports its retries only there). */
  recordStderr?: boolean;
}

const sleepInterrupt = (
  signal: AgentCliInterrupt['signal'],
  target: AgentCliInterrupt['target'],
  afterStdout = 'sleep 30',
): AgentCliInterrupt => ({
  signal,
  target,
  afterStdout,
  delayMs: 2000,
});

const MAIN_PROMPT =
  'Create hello.txt, edit it, list the directory, then read does-not-exist.txt. [scenario:main]';
const RESUME_PROMPT = 'Read hello.txt again. [scenario:resume2]';
const MAIN_SHORT_PROMPT =
  'Create hello.txt, edit it, list the directory, then read does-not-exist.txt. [scenario:main-short]';
const APIERR_NOTE =
  'The stand-in answers its always-failing turn with a 100 ms retry-after-ms, so the CLI retries without its long backoff.';

/** Every fixture each CLI records, in recording order (a resumed run after the one it resumes). */
export const agentCliFixturePlans: Record<string, AgentCliFixturePlan[]> = {
  'claude-code': [
    {
      fixture: 'main',
      scenario: 'main',
      prompt: MAIN_PROMPT,
      permissions: ['Write', 'Edit', 'Read', 'Bash(ls -la)'],
    },
    {
      fixture: 'resume2',
      scenario: 'resume2',
      prompt: RESUME_PROMPT,
      permissions: ['Bash(cat:*)'],
      resumes: 'main',
    },
    { fixture: 'deny', scenario: 'deny', prompt: 'Write a secret. [scenario:deny]', permissions: ['Read'] },
    {
      fixture: 'bigout',
      scenario: 'bigout',
      prompt: 'Print numbers. [scenario:bigout]',
      permissions: ['Bash(seq:*)'],
    },
    {
      fixture: 'apierr',
      scenario: 'apierr',
      prompt: 'Do two steps. [scenario:apierr]',
      permissions: ['Bash(echo:*)'],
      env: { CLAUDE_CODE_MAX_RETRIES: '2' },
      note: APIERR_NOTE,
    },
    {
      fixture: 'err400',
      scenario: 'err400',
      prompt: 'Do two steps. [scenario:err400]',
      permissions: ['Bash(echo:*)'],
    },
    {
      fixture: 'sigint-sleep',
      scenario: 'sleep',
      prompt: 'Wait. [scenario:sleep]',
      permissions: ['Bash(sleep:*)'],
      interrupt: sleepInterrupt('SIGINT', 'group'),
    },
    {
      fixture: 'sigterm-sleep',
      scenario: 'sleep',
      prompt: 'Wait. [scenario:sleep]',
      permissions: ['Bash(sleep:*)'],
      interrupt: sleepInterrupt('SIGTERM', 'process'),
    },
    {
      fixture: 'taskcreate-agent',
      scenario: 'todo',
      prompt: 'Plan, then delegate. [scenario:todo]',
      permissions: ['TaskCreate', 'Task', 'Agent', 'Bash(ls -la)'],
      todoTool: 'TaskCreate',
    },
    {
      fixture: 'todowrite',
      scenario: 'todo',
      prompt: 'Plan, then delegate. [scenario:todo]',
      permissions: ['TodoWrite', 'Task', 'Agent', 'Bash(ls -la)'],
      env: { CLAUDE_CODE_ENABLE_TASKS: '0' },
      todoTool: 'TodoWrite',
    },
    {
      fixture: 'tasks',
      scenario: 'tasks',
      prompt: 'Use every task tool. [scenario:tasks]',
      permissions: [
        'TaskCreate',
        'TaskGet',
        'TaskList',
        'TaskUpdate',
        'TaskOutput',
        'TaskStop',
        'Bash(sleep:*)',
      ],
    },
    {
      fixture: 'think',
      scenario: 'think',
      prompt: 'Think, then write. [scenario:think]',
      permissions: ['Write'],
    },
    {
      fixture: 'parallel',
      scenario: 'parallel',
      prompt: 'List and read at once. [scenario:parallel]',
      permissions: ['Read', 'Bash(ls -la)'],
    },
  ],
  'gemini-cli': [
    { fixture: 'main', scenario: 'main', prompt: MAIN_PROMPT, permissions: 'all' },
    { fixture: 'resume2', scenario: 'resume2', prompt: RESUME_PROMPT, permissions: 'all', resumes: 'main' },
    // Without --yolo and with write_file not allowed, headless Gemini does not even offer the tool.
    {
      fixture: 'deny',
      scenario: 'deny',
      prompt: 'Write a secret. [scenario:deny]',
      permissions: ['read_file'],
    },
    { fixture: 'bigout', scenario: 'bigout', prompt: 'Print numbers. [scenario:bigout]', permissions: 'all' },
    {
      fixture: 'apierr',
      scenario: 'apierr',
      prompt: 'Do two steps. [scenario:apierr]',
      permissions: 'all',
      note: 'Gemini CLI makes 10 attempts on 503 at its own backoff (a retry delay from the stand-in would make them quota errors): about 3.5 minutes. Its retries show only on stderr, kept as `apierr.stderr.txt`.',
      timeoutMs: 420_000,
      recordStderr: true,
    },
    { fixture: 'err400', scenario: 'err400', prompt: 'Do two steps. [scenario:err400]', permissions: 'all' },
    {
      fixture: 'sigint-sleep',
      scenario: 'sleep',
      prompt: 'Wait. [scenario:sleep]',
      permissions: 'all',
      interrupt: sleepInterrupt('SIGINT', 'group'),
    },
    {
      fixture: 'sigterm-sleep',
      scenario: 'sleep',
      prompt: 'Wait. [scenario:sleep]',
      permissions: 'all',
      interrupt: sleepInterrupt('SIGTERM', 'process'),
    },
    {
      fixture: 'think',
      scenario: 'think',
      prompt: 'Think, then write. [scenario:think]',
      permissions: 'all',
    },
    {
      fixture: 'parallel',
      scenario: 'parallel',
      prompt: 'List and read at once. [scenario:parallel]',
      permissions: 'all',
    },
  ],
  // Codex has no per-tool permissions (its runs take "all"); SIGINT/SIGTERM go to the CLI process,
  // as a program that spawned it would send them.
  codex: [
    { fixture: 'main', scenario: 'main-short', prompt: MAIN_SHORT_PROMPT, permissions: 'all' },
    { fixture: 'resume2', scenario: 'resume2', prompt: RESUME_PROMPT, permissions: 'all', resumes: 'main' },
    {
      fixture: 'apierr',
      scenario: 'apierr',
      prompt: 'Do two steps. [scenario:apierr]',
      permissions: 'all',
      note: "The CLI's `config.toml` allows 2 retries (`request_max_retries = 2`).",
    },
    { fixture: 'err400', scenario: 'err400', prompt: 'Do two steps. [scenario:err400]', permissions: 'all' },
    {
      fixture: 'sigint-sleep',
      scenario: 'sleep',
      prompt: 'Wait. [scenario:sleep]',
      permissions: 'all',
      interrupt: sleepInterrupt('SIGINT', 'process'),
    },
    {
      fixture: 'sigterm-sleep',
      scenario: 'sleep',
      prompt: 'Wait. [scenario:sleep]',
      permissions: 'all',
      interrupt: sleepInterrupt('SIGTERM', 'process'),
    },
  ],
  // Qwen Code ignores SIGINT and SIGTERM until the running command ends (about 30 s), so its abort
  // fixtures take that long.
  'qwen-code': [
    { fixture: 'main', scenario: 'main-short', prompt: MAIN_SHORT_PROMPT, permissions: 'all' },
    { fixture: 'resume2', scenario: 'resume2', prompt: RESUME_PROMPT, permissions: 'all', resumes: 'main' },
    { fixture: 'err400', scenario: 'err400', prompt: 'Do two steps. [scenario:err400]', permissions: 'all' },
    {
      fixture: 'sigint-sleep',
      scenario: 'sleep-python',
      prompt: 'Wait. [scenario:sleep-python]',
      permissions: 'all',
      interrupt: sleepInterrupt('SIGINT', 'process', 'time.sleep(30)'),
    },
    {
      fixture: 'sigterm-sleep',
      scenario: 'sleep-python',
      prompt: 'Wait. [scenario:sleep-python]',
      permissions: 'all',
      interrupt: sleepInterrupt('SIGTERM', 'process', 'time.sleep(30)'),
    },
  ],
};
