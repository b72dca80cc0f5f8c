import { describe, expect, it } from 'vitest';
import { demoTurn } from './demo-script.js';
import {
  SAMPLE_BUGGY_LINE,
  SAMPLE_FIXED_LINE,
  SAMPLE_SOURCE_PATH,
  SAMPLE_TEST_COMMAND,
} from './sample-workspace.js';
import { playDemo, requestBody } from './test-support.js';

// Tool results worded as the workspace tools and the tool host word them.
const numbered = (...lines: string[]) =>
  lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');
const READ = numbered(
  "/** greet('Ada') → 'Hello, Ada!' */",
  'export function greet(name) {',
  SAMPLE_BUGGY_LINE,
  '}',
);
const EDITED = 'Updated src/greet.js (1 replacement)';
const LISTED = ['.cairn-demo-sample', 'README.md', 'package.json', 'src/', 'test/'].join('\n');
const TESTS_FAILED = [
  'Exit code 1',
  'TAP version 13',
  '# Subtest: shout says it loudly',
  'not ok 2 - shout says it loudly',
  "  actual: 'hello, ada!'",
  '# fail 1',
].join('\n');
const REFUSED = 'The user did not approve running run_command.';

describe('demoTurn: the tour', () => {
  it('reads the file, fixes the typo with its exact line, lists the project, runs the tests', () => {
    const { turns } = playDemo([READ, EDITED, LISTED, TESTS_FAILED]);
    expect(
      turns.map((turn) => turn.toolCalls?.map(({ name, arguments: input }) => ({ name, input }))),
    ).toEqual([
      [{ name: 'read_file', input: { path: SAMPLE_SOURCE_PATH } }],
      [
        {
          name: 'edit_file',
          input: { path: SAMPLE_SOURCE_PATH, old_string: SAMPLE_BUGGY_LINE, new_string: SAMPLE_FIXED_LINE },
        },
      ],
      [{ name: 'list_dir', input: { path: '.' } }],
      [{ name: 'run_command', input: { command: SAMPLE_TEST_COMMAND } }],
      undefined,
    ]);
    expect(turns.map((turn) => turn.text?.split('\n', 1)[0])).toEqual([
      'Let me look at the sample project.',
      'Found it: `greet` uses `nmae`, a typo for `name`, so every call throws a ReferenceError. Let me fix it.',
      'Fixed. Let me see what else is in the project.',
      'There is a test folder: let me run the tests.',
      'Here is what happened:',
    ]);
  });

  it('ends with what really happened, quoting the failing test', () => {
    const answer = playDemo([READ, EDITED, LISTED, TESTS_FAILED]).turns.at(-1)?.text;
    expect(answer).toContain('I fixed the typo with edit_file');
    expect(answer).toContain('The project holds .cairn-demo-sample, README.md, package.json, src/, test/.');
    expect(answer).toContain(
      `\`${SAMPLE_TEST_COMMAND}\` failed with exit code 1: “not ok 2 - shout says it loudly”. That is the second bug`,
    );
    expect(answer).toContain('scripted, not written by a language model');
    expect(answer).toContain('OPENAI_API_KEY');
  });

  it('says so honestly when the user refused a call or a call failed', () => {
    const editFailed = 'old_string was not found in src/greet.js. It must match the file exactly.';
    const { turns } = playDemo([READ, editFailed, LISTED, REFUSED]);
    expect(turns[2]?.text).toBe(
      'The edit did not go through, so the typo stays. Let me see what else is in the project.',
    );
    const answer = turns.at(-1)?.text;
    expect(answer).toContain(`- The edit failed: “${editFailed}”.`);
    expect(answer).toContain(`- \`${SAMPLE_TEST_COMMAND}\` did not happen: “${REFUSED}”.`);
    expect(answer).not.toContain('failed with exit code');
  });

  it('reports tests that pass, and a command that did not finish', () => {
    expect(playDemo([READ, EDITED, LISTED, '# pass 2']).turns.at(-1)?.text).toContain(
      `- \`${SAMPLE_TEST_COMMAND}\` passed.`,
    );
    const timedOut = 'Command timed out after 120 s and was stopped\n(no output)';
    expect(playDemo([READ, EDITED, LISTED, timedOut]).turns.at(-1)?.text).toContain(
      'did not finish: “Command timed out after 120 s and was stopped”',
    );
  });

  it('stops after reading a file that is not the sample, touching nothing', () => {
    const { turns } = playDemo(['File not found: src/greet.js', EDITED]);
    expect(turns).toHaveLength(2);
    expect(turns[1]?.toolCalls).toBeUndefined();
    expect(turns[1]?.text).toContain(
      'src/greet.js is not the sample file this scripted tour expects (read_file said “File not found: src/greet.js”), so I stopped',
    );
    const fixed = numbered('export function greet(name) {', SAMPLE_FIXED_LINE, '}');
    expect(playDemo([fixed]).turns[1]?.text).toContain('src/greet.js is already fixed');
  });

  it('skips the steps whose tool is not offered, and needs read_file to start', () => {
    const { turns } = playDemo([READ, LISTED], { tools: ['read_file', 'list_dir', 'grep'] });
    expect(turns.map((turn) => turn.toolCalls?.[0]?.name)).toEqual(['read_file', 'list_dir', undefined]);
    expect(turns[1]?.text).toBe(
      'I cannot edit files here, so the typo stays. Let me see what else is in the project.',
    );
    const noTools = demoTurn(requestBody([{ role: 'user', content: 'hi' }], []));
    expect(noTools.toolCalls).toBeUndefined();
    expect(noTools.text).toContain('read_file is not available here');
  });

  it('gives every call an id of its own', () => {
    const ids = playDemo([READ, EDITED, LISTED]).turns.flatMap((turn) =>
      turn.toolCalls?.map((call) => call.id),
    );
    expect(new Set(ids).size).toBe(4);
  });
});

describe('demoTurn: outside the tour', () => {
  it('answers a later message by echoing it and pointing to a real model', () => {
    const { messages, turns } = playDemo([READ, EDITED, LISTED, TESTS_FAILED]);
    messages.push({ role: 'assistant', content: turns.at(-1)?.text ?? '' });
    messages.push({ role: 'user', content: [{ type: 'text', text: 'Can you fix shout too?' }] });
    const answer = demoTurn(requestBody(messages));
    expect(answer.toolCalls).toBeUndefined();
    expect(answer.text).toMatch(
      /^You asked “Can you fix shout too\?”, but I cannot really answer: .*scripted offline demo/,
    );
    expect(answer.text).toContain('--provider');
  });

  it('writes a summary of a summariser request from its transcript', () => {
    const transcript = [
      'USER: Show me around.',
      'ASSISTANT: Let me look at the sample project.\n[calls read_file({"path":"src/greet.js"})]',
      'TOOL RESULT: 1\texport function greet(name) {',
      'ASSISTANT: Let me run the tests.\n[calls run_command({"command":"node --test"})]',
      'TOOL RESULT (error): Exit code 1\nnot ok 2',
      'USER: And now?',
    ].join('\n\n');
    const answer = demoTurn(
      requestBody(
        [
          { role: 'system', content: 'You summarise part of a conversation …' },
          { role: 'user', content: `The messages to summarise:\n\n${transcript}` },
        ],
        [],
      ),
    );
    expect(answer.toolCalls).toBeUndefined();
    expect(answer.text?.split('\n')).toEqual([
      '## Goal',
      '“Show me around.”',
      '## Decisions and facts',
      "- The assistant is Cairn's scripted offline demo, not a language model: it can only tour its sample project.",
      '## Work done',
      '- read_file({"path":"src/greet.js"}) → ok: 1\texport function greet(name) {',
      '- run_command({"command":"node --test"}) → error: Exit code 1',
      '## Open items',
      '- The latest request: “And now?”',
    ]);
  });

  it('estimates the input tokens from the request size', () => {
    const body = requestBody([{ role: 'user', content: 'x'.repeat(4000) }]);
    expect(demoTurn(body).usage?.inputTokens).toBeGreaterThan(1000);
  });
});
