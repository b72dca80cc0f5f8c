import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ConversationMessage, isValidConversationMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_API_ERROR,
  CLAUDE_RESULT,
  CLAUDE_SESSION,
  capturedIO,
  GEMINI_RESULT,
  GEMINI_SESSION,
  savedTranscript,
  tempDir,
} from '../../test/fixtures/agent/agent-test-support.js';
import { type ConvertCommandOptions, runConvertCommand } from './convert-command.js';

const PROJECT = '/home/dev/project';
const PROMPT = 'Fix the typo in notes.txt';
const CLAUDE_SAVE_HINT =
  'save it with `claude -p "<prompt>" --output-format stream-json --verbose > transcript.jsonl`';

async function convert(options: Partial<ConvertCommandOptions>, given?: ReturnType<typeof capturedIO>) {
  const io = given ?? capturedIO({ cwd: await tempDir() });
  const code = await runConvertCommand(
    { from: 'claude-code', view: 'log', format: 'jsonl', ...options },
    { io },
  );
  return { code, stdout: io.stdout.text, stderr: io.stderr.text };
}

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ConversationMessage);

// One line per message: who, and the text or tool summary.
const described = (messages: readonly ConversationMessage[]) =>
  messages.map((message) => `${message.partType ?? message.role}: ${message.content ?? ''}`);

describe('cairn convert --from claude-code', () => {
  it('writes the log messages as JSON lines, timed by the transcript', async () => {
    const file = await savedTranscript(CLAUDE_SESSION, { cwd: PROJECT });

    const { code, stdout, stderr } = await convert({ file });

    expect(code).toBe(0);
    expect(stderr).toBe('');
    const log = jsonLines(stdout);
    expect(log.every(isValidConversationMessage)).toBe(true);
    expect(log.every((message) => message.mode === 'agent')).toBe(true);
    expect(log.map((message) => message.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(log[0]?.tool_calls?.[0]?.function.name).toBe('Edit');
    expect(log[0]?.providerMetadata).toEqual({
      'claude-code': { sessionId: 'claude-session-1', cwd: PROJECT },
    });
    // Bash ran from the Edit result (10:00:01.000) to its own result (10:00:02.500).
    expect(log[3]).toMatchObject({ toolName: 'Bash', duration: 1500, createdAt: '2030-01-02T10:00:02.500Z' });
  });

  it('times every message by the transcript: lines without a time of their own by the nearest one', async () => {
    const file = await savedTranscript(CLAUDE_SESSION, { cwd: PROJECT });

    const log = jsonLines((await convert({ file })).stdout);
    const display = jsonLines((await convert({ file, view: 'display' })).stdout);

    // Only tool results carry a time: the first reply gets the first one, later replies the one before them.
    expect(log.map((message) => `${message.role} ${message.createdAt}`)).toEqual([
      'assistant 2030-01-02T10:00:01.000Z',
      'tool 2030-01-02T10:00:01.000Z',
      'assistant 2030-01-02T10:00:01.000Z',
      'tool 2030-01-02T10:00:02.500Z',
      'assistant 2030-01-02T10:00:02.500Z',
    ]);
    // Each execution has the time of its result.
    expect(display.map((message) => `${message.partType ?? message.role} ${message.createdAt}`)).toEqual([
      'assistant 2030-01-02T10:00:01.000Z',
      'tool_execution 2030-01-02T10:00:01.000Z',
      'tool_execution 2030-01-02T10:00:02.500Z',
      'assistant 2030-01-02T10:00:02.500Z',
    ]);
  });

  it('writes the display view: each call merged with its result, paths relative to the recorded cwd', async () => {
    const file = await savedTranscript(CLAUDE_SESSION, { cwd: PROJECT });

    const { code, stdout } = await convert({ file, view: 'display' });

    expect(code).toBe(0);
    const display = jsonLines(stdout);
    expect(described(display)).toEqual([
      "assistant: I'll fix the greeting in notes.txt.",
      'tool_execution: Updated notes.txt',
      'tool_execution: Ran `cat notes.txt`',
      'assistant: Fixed: the greeting now reads "Hello, world!".',
    ]);
    expect(display[1]?.toolExecution?.details).toMatchObject({
      type: 'diff',
      oldContent: 'Hello, wrld!\nSee you.\n',
    });
  });

  it('writes Markdown of the display view, whatever --view', async () => {
    const file = await savedTranscript(CLAUDE_SESSION, { cwd: PROJECT });

    const { code, stdout } = await convert({ file, view: 'log', format: 'md' });

    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^# Claude Code transcript: transcript\.jsonl\n\n## Assistant\n\nI'll fix the greeting/,
    );
    expect(stdout).toContain('✓ Updated notes.txt');
    expect(stdout).toMatch(/```diff\n[^`]*-Hello, wrld!\n\+Hello, world!/);
  });

  it('reads stdin for - and for no file', async () => {
    const transcript = await readFile(await savedTranscript(CLAUDE_SESSION, { cwd: PROJECT }), 'utf8');
    const cwd = await tempDir();

    const dash = await convert({ file: '-', view: 'display' }, capturedIO({ cwd, stdin: transcript }));
    const none = await convert({ view: 'display' }, capturedIO({ cwd, stdin: transcript }));

    expect(dash.code).toBe(0);
    expect(described(jsonLines(dash.stdout))).toHaveLength(4);
    expect(described(jsonLines(none.stdout))).toEqual(described(jsonLines(dash.stdout)));
  });

  it('refuses to wait for a transcript typed on a terminal', async () => {
    const io = capturedIO({ cwd: await tempDir() });
    io.stdin.isTTY = true;

    const { code, stderr } = await convert({}, io);

    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^cairn: no transcript to convert \[INVALID_ARGUMENT\] — pass its file, or pipe it in/,
    );
  });

  it('skips lines that are not JSON or not known events, and says how many', async () => {
    const file = await savedTranscript(CLAUDE_SESSION, {
      cwd: PROJECT,
      insert: { at: 3, lines: ['Warning: something went sideways', '{"type":"mystery","subtype":"new"}'] },
    });

    const { code, stdout, stderr } = await convert({ file });

    expect(code).toBe(0);
    expect(stderr).toBe(
      `cairn: skipped 2 of 10 lines of ${file}: 1 not JSON (first: line 3); ` +
        '1 not Claude Code events Cairn converts (first: line 4, an unknown "mystery/new" line)\n',
    );
    const log = jsonLines(stdout);
    // The bad line is kept for the record, as the agent executor keeps it, out of the model's context.
    expect(log.find((message) => message.partType === 'error')).toMatchObject({
      errorCode: 'LLM_BAD_RESPONSE',
      includeInContext: false,
    });
    expect(log.filter((message) => message.role === 'tool')).toHaveLength(2);
  });

  it('fails with exit code 2 and one line for a file that is not JSON lines', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'notes.txt'), 'hello there\nthis is prose\n');
    const io = capturedIO({ cwd: dir });

    const { code, stdout, stderr } = await convert({ file: 'notes.txt' }, io);

    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `cairn: notes.txt is not a Claude Code stream-json transcript (line 1: not JSON: "hello there") [INVALID_ARGUMENT] — ${CLAUDE_SAVE_HINT}\n`,
    );
  });

  it('fails for a transcript of the other CLI', async () => {
    const file = await savedTranscript(GEMINI_SESSION, { cwd: PROJECT, prompt: PROMPT });

    const { code, stdout, stderr } = await convert({ file });

    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('is not a Claude Code stream-json transcript (line 1: an unknown "init" line)');
  });

  it('stops reading early when nothing converts in the first lines', async () => {
    const dir = await tempDir();
    const file = join(dir, 'many.jsonl');
    await writeFile(file, '{"type":"mystery"}\n'.repeat(5000));

    const { code, stderr } = await convert({ file });

    expect(code).toBe(2);
    expect(stderr).toContain('(line 1: an unknown "mystery" line; nothing converted in the first 100 lines)');
  });

  it('fails for an empty file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'empty.jsonl'), '\n\n');

    const { code, stderr } = await convert({ file: 'empty.jsonl' }, capturedIO({ cwd: dir }));

    expect(code).toBe(2);
    expect(stderr).toContain('cairn: empty.jsonl is not a Claude Code stream-json transcript (it is empty)');
  });

  it('fails for a missing file or a directory', async () => {
    const dir = await tempDir();

    const missing = await convert({ file: 'nope.jsonl' }, capturedIO({ cwd: dir }));
    const directory = await convert({ file: '.' }, capturedIO({ cwd: dir }));

    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: 'cairn: nope.jsonl does not exist [INVALID_ARGUMENT]\n',
    });
    expect(directory.stderr).toBe('cairn: . is a directory, not a transcript file [INVALID_ARGUMENT]\n');
  });

  it('converts the transcript of a failed run: its error', async () => {
    const file = await savedTranscript(CLAUDE_API_ERROR, { cwd: PROJECT });

    const { code, stdout } = await convert({ file, view: 'display' });

    expect(code).toBe(0);
    expect(described(jsonLines(stdout))).toEqual(['error: API Error: 529 Overloaded']);
  });

  it('fails for the --output-format json result, on one line or pretty-printed: it holds no messages', async () => {
    const dir = await tempDir();
    const oneLine = join(dir, 'result.json');
    await writeFile(oneLine, JSON.stringify(JSON.parse(await readFile(CLAUDE_RESULT, 'utf8'))));

    const printed = await convert({ file: oneLine });
    const pretty = await convert({ file: CLAUDE_RESULT });

    expect(printed.code).toBe(2);
    expect(printed.stderr).toContain('(no line in it converts to a message)');
    expect(pretty.code).toBe(2);
    expect(pretty.stderr).toContain('(one JSON document with no messages in it)');
  });
});

describe('cairn convert --from gemini-cli', () => {
  it('writes the log with the prompt, timed by the transcript', async () => {
    const file = await savedTranscript(GEMINI_SESSION, { cwd: PROJECT, prompt: PROMPT });

    const { code, stdout, stderr } = await convert({ from: 'gemini-cli', file });

    expect(code).toBe(0);
    expect(stderr).toBe('');
    const log = jsonLines(stdout);
    expect(log.every(isValidConversationMessage)).toBe(true);
    expect(log[0]).toMatchObject({ role: 'user', content: PROMPT, createdAt: '2030-01-02T11:00:00.010Z' });
    expect(log.filter((message) => message.role === 'tool').map((message) => message.duration)).toEqual([
      250, 40,
    ]);
  });

  it('shows paths relative to --cwd in the display view (Gemini CLI does not record its directory)', async () => {
    const file = await savedTranscript(GEMINI_SESSION, { cwd: PROJECT, prompt: PROMPT });

    const relative = await convert({ from: 'gemini-cli', file, view: 'display', cwd: PROJECT });
    const absolute = await convert({ from: 'gemini-cli', file, view: 'display' });

    expect(described(jsonLines(relative.stdout))).toEqual([
      `user: ${PROMPT}`,
      'assistant: Fixing the greeting.',
      'tool_execution: Updated notes.txt',
      'tool_execution: Ran `cat notes.txt`',
      'assistant: Done: the greeting is fixed.',
    ]);
    expect(described(jsonLines(absolute.stdout))[2]).toBe(`tool_execution: Updated ${PROJECT}/notes.txt`);
  });

  it('reads the --output-format json document, pretty-printed or on one line', async () => {
    const oneLine = join(await tempDir(), 'result.json');
    await writeFile(oneLine, JSON.stringify(JSON.parse(await readFile(GEMINI_RESULT, 'utf8'))));

    const pretty = await convert({ from: 'gemini-cli', file: GEMINI_RESULT, view: 'display' });
    const printed = await convert({ from: 'gemini-cli', file: oneLine, view: 'display' });

    expect(pretty.code).toBe(0);
    expect(described(jsonLines(pretty.stdout))).toEqual(['assistant: notes.txt greets the world.']);
    // The document has no times: its message has the time the file was saved.
    const saved = new Date('2030-03-04T05:06:07.000Z');
    await utimes(oneLine, saved, saved);
    const timed = await convert({ from: 'gemini-cli', file: oneLine });
    expect(jsonLines(timed.stdout)[0]?.createdAt).toBe(saved.toISOString());
    expect(described(jsonLines(printed.stdout))).toEqual(['assistant: notes.txt greets the world.']);
  });

  it('fails for a Claude Code transcript, naming how to save a Gemini CLI one', async () => {
    const file = await savedTranscript(CLAUDE_SESSION, { cwd: PROJECT });

    const { code, stderr } = await convert({ from: 'gemini-cli', file });

    expect(code).toBe(2);
    expect(stderr).toBe(
      `cairn: ${file} is not a Gemini CLI stream-json transcript (line 1: an unknown "system/init" line) [INVALID_ARGUMENT] — ` +
        'save it with `gemini -p "<prompt>" --output-format stream-json > transcript.jsonl`\n',
    );
  });
});
