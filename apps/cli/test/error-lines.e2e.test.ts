import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

// Every failure is one line: the problem, its stable code, and (usually) the fix.
const ERROR_LINE = /^cairn: .+ \[[A-Z_]+\]( — .+)?$/;

let server: MockProviderServer;
let env: Record<string, string>;
let conversationId: string;

beforeAll(async () => {
  ensureCliBuilt();
  server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'kept' }] });
  env = mockEnv(tempDir('error-lines'), server.baseURL);
  const first = await runCairn(['-p', 'remember me'], { env });
  expect(first.code, first.stderr).toBe(0);
  conversationId = /conversation (\S+)/.exec(first.stderr)?.[1] as string;
}, 120_000);

afterAll(() => server.close());

interface BadInvocation {
  args: string[];
  code: number;
  /** What the line says, beyond its shape. */
  says: RegExp;
}

// Commander's own usage errors, at the root and in subcommands: exit code 2, the fix names a --help.
const USAGE_ERRORS: BadInvocation[] = [
  {
    args: ['--bogus'],
    code: 2,
    says: /^cairn: unknown option '--bogus' \[INVALID_ARGUMENT\] — `cairn chat --help`/,
  },
  {
    args: ['--modle', 'x'],
    code: 2,
    says: /unknown option '--modle' .* — Did you mean --model\? `cairn chat --help`/,
  },
  { args: ['bogus'], code: 2, says: /unknown command "bogus" \[INVALID_ARGUMENT\] — `cairn --help`/ },
  {
    args: ['conversations', 'lst'],
    code: 2,
    says: /unknown command 'lst' .* — Did you mean list\? `cairn conversations --help` lists the commands$/,
  },
  {
    args: ['conversations', 'list', '--lmit', '3'],
    code: 2,
    says: /unknown option '--lmit' .* — Did you mean --limit\? `cairn conversations list --help` lists its options/,
  },
  { args: ['conversations', 'list', '--limit'], code: 2, says: /option '-n, --limit <n>' argument missing/ },
  { args: ['conversations', 'list', '--limit', 'x'], code: 2, says: /--limit must be a positive integer/ },
  {
    args: ['conversations', 'show'],
    code: 2,
    says: /missing required argument 'id' .* — `cairn conversations show --help` shows the usage$/,
  },
  {
    args: ['conversations', 'show', 'a', 'b'],
    code: 2,
    says: /too many arguments for 'show': expected 1 argument but got 2 \[INVALID_ARGUMENT\]/,
  },
  {
    args: ['conversations', 'export', 'x', '--format', 'pdf'],
    code: 2,
    says: /argument 'pdf' is invalid: allowed choices are jsonl, json, md .* `cairn conversations export --help`/,
  },
  {
    args: ['--store', 'mongo', 'conversations', 'list'],
    code: 2,
    says: /argument 'mongo' is invalid: allowed choices are fs, sqlite, postgres .* `cairn --help`/,
  },
  { args: ['runs', 'show'], code: 2, says: /missing required argument 'runId' .* `cairn runs show --help`/ },
  { args: ['runs', 'lst'], code: 2, says: /Did you mean list\? `cairn runs --help`/ },
  {
    args: ['workflow', 'run'],
    code: 2,
    says: /missing required argument 'file' .* `cairn workflow run --help`/,
  },
  { args: ['demo', 'extra'], code: 2, says: /too many arguments for 'demo'/ },
  { args: ['agent', 'claude'], code: 2, says: /missing required argument 'prompt' .* `cairn agent --help`/ },
  { args: ['agent', 'vim', 'hi'], code: 2, says: /unknown agent CLI "vim"/ },
  {
    args: ['convert'],
    code: 2,
    says: /required option '--from <format>' not specified .* `cairn convert --help`/,
  },
  { args: ['convert', '--from', 'cursor'], code: 2, says: /allowed choices are claude-code, gemini-cli/ },
  {
    args: ['chat', '-c', '-r', 'x'],
    code: 2,
    says: /option '-c, --continue' cannot be used with option '-r, --resume <id>'/,
  },
];

const listed = (command: string) => new RegExp(`— \`cairn ${command} list\` shows the ids$`);

// Ids that name nothing: exit code 3, the fix names the command that lists the real ones.
const MISSING: BadInvocation[] = [
  { args: ['conversations', 'show', 'chat-nope'], code: 3, says: listed('conversations') },
  { args: ['conversations', 'export', 'chat-nope'], code: 3, says: listed('conversations') },
  { args: ['conversations', 'delete', 'chat-nope'], code: 3, says: listed('conversations') },
  { args: ['conversations', 'delete', 'chat-nope', '--yes'], code: 3, says: listed('conversations') },
  { args: ['runs', 'show', 'nope'], code: 3, says: /^cairn: there is no run "nope" \[STORE_NOT_FOUND\]/ },
  {
    args: ['agent', 'claude', 'hi', '--resume', '--conversation', 'chat-nope'],
    code: 3,
    says: /^cairn: there is no conversation "chat-nope" \[STORE_NOT_FOUND\] — `cairn conversations list`/,
  },
  { args: ['conversations', 'export', '../../etc/passwd'], code: 2, says: /\[INVALID_ID\]/ },
  // Checked before the session is announced: no "model: …" line comes first.
  { args: ['chat', '--resume', 'chat-nope', '-p', 'x'], code: 3, says: listed('conversations') },
  { args: ['runs', 'continue', 'nope'], code: 3, says: listed('runs') },
];

const stderrLines = (stderr: string) => stderr.split('\n').filter((line) => line !== '');
const named = (cases: BadInvocation[]) => cases.map((bad) => [bad.args.join(' '), bad] as const);

describe('every failure is one line: cairn: <problem> [CODE] — <fix>', () => {
  it.each(named([...USAGE_ERRORS, ...MISSING]))('cairn %s', async (_name, { args, code, says }) => {
    const run = await runCairn(args, { env });
    expect(run.code, run.stderr).toBe(code);
    const lines = stderrLines(run.stderr);
    // Nothing else: no commander "error:" line, no help text, no stack.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(ERROR_LINE);
    expect(lines[0]).toMatch(says);
    expect(run.stdout).toBe('');
  });

  it('left the store as it was, and asked the model nothing more', async () => {
    const list = await runCairn(['conversations', 'list', '--json'], { env });
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual([conversationId]);
    expect(chatRequests(server)).toHaveLength(1);
  });
});

describe('cairn conversations delete without a terminal', () => {
  it('refuses without --yes, deleting nothing; deletes with --yes or -y', async () => {
    const own = mockEnv(tempDir('delete'), server.baseURL);
    const ids: string[] = [];
    for (const prompt of ['one', 'two']) {
      const run = await runCairn(['-p', prompt], { env: own });
      ids.push(/conversation (\S+)/.exec(run.stderr)?.[1] as string);
    }
    const [first, second] = ids as [string, string];

    const refused = await runCairn(['conversations', 'delete', first], { env: own });
    expect(refused.code).toBe(2);
    expect(stderrLines(refused.stderr)).toEqual([
      `cairn: not deleting ${first}: there is no terminal to confirm it [INVALID_ARGUMENT] — pass --yes to delete it without asking`,
    ]);
    const listed = async () => (await runCairn(['conversations', 'list'], { env: own })).stdout;
    expect(await listed()).toContain(first);

    const yes = await runCairn(['conversations', 'delete', first, '--yes'], { env: own });
    expect(yes).toMatchObject({ code: 0, stdout: `deleted ${first}\n`, stderr: '' });
    const short = await runCairn(['conversations', 'delete', '-y', second], { env: own });
    expect(short).toMatchObject({ code: 0, stdout: `deleted ${second}\n` });
    expect(await listed()).not.toMatch(/chat-/);
  });
});

describe('help is not a failure', () => {
  it('--help and --version exit 0 on stdout', async () => {
    const noEnv = cliEnv(tempDir('help-ok'));
    for (const args of [['--help'], ['conversations', 'delete', '--help'], ['--version']]) {
      const run = await runCairn(args, { env: noEnv });
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toBe('');
    }
  });
});
