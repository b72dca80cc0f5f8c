// pnpm --filter @cairn/message-processor bench
// The message-processor pipeline against a bare JSON.parse of the same lines, on two streams:
// - a 100 MB synthetic Claude Code stream-json transcript (converter → message processor with the
//   merged display view and the live display of running calls);
// - the real Claude Code 2.1.197 captures in @cairn/agent-cli's fixtures/real/claude-code (main scenario, a cut Bash
//   output, task tools and a sub-agent, an interrupted `sleep`, API errors), replayed as stdout
//   chunks until 20 MB: line splitting → converter → processor, as the executor runs them, against
//   the same chunks split and parsed bare (and, shown without a goal, against parsing lines split
//   beforehand, which leaves the splitting on the pipeline's side only).
// The issue's goal is a throughput ratio ≥ 0.5; `report` checks ceilings, so the goal figure is the
// inverse: pipeline time ÷ bare JSON.parse time ≤ 2. Timing (`pairedCpu`): each stream in ~1 MB
// slices, a slice of the pipeline against the same slice parsed bare, alternating, in the process's
// CPU time (GC and compilation included), after one pass each to warm up. No forced GC between the
// cases: a forced GC makes V8 throw away the pipeline's optimized code (it embeds the hidden
// classes of events that die in the GC), and the next case pays the recompilation — a cost of the
// bench, not of a running agent. Then one more pipeline pass with the heap sampled after forced
// GCs: it must stay flat. Prints a table and one JSON line.

import { readdirSync, readFileSync } from 'node:fs';
import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import { pairedCpu, report, seededRandom } from '@cairn/bench';
import { LineSplitter } from '@cairn/provider-utils';
import { createMessageProcessor, LiveDisplay } from '../dist/index.js';

const TARGET_BYTES = 100 * 1024 * 1024;
const MAX_LINE_BYTES = 20 * 1024;
// The streams are timed in slices of about 1 MB: the pipeline's and the bare parse's alternate.
const SLICE_BYTES = 1024 * 1024;
// Measured passes through each stream (after one to warm up).
const PASSES = 2;
const REAL_PASSES = 8;
const HEAP_SAMPLES_AT = [0.1, 0.25, 0.5, 0.75, 1];
// Growth allowed between the 10% and the 100% heap sample. The processor keeps only the open
// message and the calls in flight, and the messages it hands off are dropped here, so the heap
// should not grow at all (runs show well under 1 MB either way). 4 MB over the ~13,500 tool calls
// in that span is ~300 bytes a call: keeping any message (kilobytes each), or even a small record
// per call, fails it.
const HEAP_GROWTH_GOAL_MB = 4;

const gc = globalThis.gc;
if (gc === undefined) throw new Error('run with node --expose-gc (the package script does)');

// A seeded generator, so every run processes the same stream.
const random = seededRandom();
const int = (min, max) => min + Math.floor(random() * (max - min + 1));
const pick = (items) => items[Math.floor(random() * items.length)];
const chance = (probability) => random() < probability;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const chars = (alphabet, length) => Array.from({ length }, () => pick(alphabet)).join('');
const uuid = () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-a${chars(HEX, 3)}-${chars(HEX, 12)}`;

// ---- Text the agent writes: code, prose, command output (with non-ASCII text mixed in) ----

const CWD = '/home/dev/work-claude-stream';
const SESSION_ID = uuid();
const NAMES = ['user', 'order', 'invoice', 'resume', 'session', 'cache', 'token', 'greeting', 'ledger'];
const DIRS = ['src', 'src/lib', 'src/routes', 'src/components', 'test', 'packages/core/src', 'docs'];
const EXTENSIONS = ['ts', 'tsx', 'js', 'md', 'json'];
const name = () => `${pick(NAMES)}${int(0, 99)}`;
const relativePath = () => `${pick(DIRS)}/${name()}.${pick(EXTENSIONS)}`;
const CODE = [
  () => `import { ${name()} } from './${name()}.js';`,
  () => `export function ${name()}(input: ${pick(['string', 'number', 'User', 'Order[]'])}): boolean {`,
  () => `  const ${name()} = await load${int(1, 9)}(options.${name()} ?? ${int(0, 9999)});`,
  () =>
    `  if (!${name()}) throw new Error('${pick(['Utilisateur introuvable', 'ユーザーが見つかりません', 'not found', 'Größe überschritten'])}: ' + id);`,
  () => `  return items.filter((item) => item.${name()} > ${int(0, 500)}).map((item) => item.id);`,
  () =>
    `  // ${pick(['Résumé', 'Naïve', 'Why', 'Note', '注意', 'TODO'])}: ${pick(['keep the order stable', 'caché pour la suite', '日本語のコメント', 'flaky on CI 🙃', 'see RFC-0042'])}`,
  () => '}',
  () => '',
  () =>
    `    expect(${name()}).toEqual({ id: ${int(1, 999)}, label: '${pick(['café', 'naïve', 'straße', '東京', 'emoji 🚀'])}' });`,
  () => `const ${name().toUpperCase()} = ${int(0, 1_000_000)};`,
];
const codeLine = () => pick(CODE)();
const linesOfSize = (bytes) => {
  const lines = [];
  for (let size = 0; size < bytes; size += lines.at(-1).length + 1) lines.push(codeLine());
  return lines;
};
// Mostly small files, some of a few kilobytes, a few large ones (capped by the tool's line budget).
const fileBytes = (max) =>
  Math.min(max, chance(0.7) ? int(200, 3000) : chance(0.85) ? int(3000, 9000) : int(9000, 18000));

const PROSE = [
  "I'll look at the failing test first.",
  'The résumé parser trims the naïve way; let me fix that.',
  'Now I will update the handler so the cache is invalidated — then run the tests.',
  'テストが失敗しているので、原因を調べます。',
  'Let me check which files reference this function.',
  'Done: the build passes and the new test covers the edge case 🎉.',
  'The error says the module cannot be found, so the import path is probably wrong.',
  'Je vais vérifier la configuration avant de continuer.',
];
const prose = () =>
  Array.from({ length: chance(0.9) ? int(1, 3) : int(10, 40) }, () => pick(PROSE)).join(
    chance(0.5) ? ' ' : '\n\n',
  );

const TEST_OUTPUT = [
  () => ` ✓ ${relativePath()} (${int(1, 40)} tests) ${int(3, 900)}ms`,
  () => ` × ${name()} › handles ${pick(['unicode', 'empty input', 'résumé'])} ${int(1, 90)}ms`,
  () => `   → expected '${pick(['café', '東京', 'ok'])}' to be '${pick(['cafe', 'tokyo', 'ko'])}'`,
  () => `-rw-r--r--  1 dev dev ${int(10, 90000)} Nov 22 08:49 ${name()}.${pick(EXTENSIONS)}`,
  () => `${relativePath()}:${int(1, 400)}:  // TODO ${pick(['remove this', 'clean up', 'nettoyer'])}`,
];
const commandOutput = (lines) => Array.from({ length: lines }, () => pick(TEST_OUTPUT)()).join('\n');

// ---- Stream lines, shaped like /work/shared/fixtures/claude-code/stream.jsonl ----

let clock = Date.parse('2026-11-22T08:49:48.000Z');
const timestamp = () => {
  clock += int(5, 4000);
  return new Date(clock).toISOString();
};
const usage = () => ({
  input_tokens: int(1000, 90000),
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: int(0, 50000),
  output_tokens: int(1, 900),
  service_tier: 'standard',
});
const assistantLine = (messageId, block) =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-8',
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(),
      context_management: null,
    },
    parent_tool_use_id: null,
    session_id: SESSION_ID,
    uuid: uuid(),
    request_id: `req_01${chars(ALPHANUMERIC, 22)}`,
  });
const userLine = (toolUseId, content, isError, toolUseResult) =>
  JSON.stringify({
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          tool_use_id: toolUseId,
          type: 'tool_result',
          content,
          ...(isError || chance(0.3) ? { is_error: isError } : {}),
        },
      ],
    },
    parent_tool_use_id: null,
    session_id: SESSION_ID,
    uuid: uuid(),
    timestamp: timestamp(),
    tool_use_result: toolUseResult,
  });

// One contiguous change (`removed` lines at `at` replaced by `added`), as a unified hunk with 3 lines of context.
function changeLines(original, at, removed, added) {
  const changed = [...original.slice(0, at), ...added, ...original.slice(at + removed)];
  const from = Math.max(0, at - 3);
  const contextAfter = original.slice(at + removed, at + removed + 3);
  const lines = [
    ...original.slice(from, at).map((line) => ` ${line}`),
    ...original.slice(at, at + removed).map((line) => `-${line}`),
    ...added.map((line) => `+${line}`),
    ...contextAfter.map((line) => ` ${line}`),
  ];
  const context = at - from + contextAfter.length;
  const hunk = {
    oldStart: from + 1,
    oldLines: removed + context,
    newStart: from + 1,
    newLines: added.length + context,
    lines,
  };
  return { changed, hunk };
}

// Each tool: its input and what the user line reports back ([content, isError, tool_use_result]).
const TOOLS = {
  Write() {
    const filePath = `${CWD}/${relativePath()}`;
    if (chance(0.7)) {
      const content = linesOfSize(fileBytes(18000)).join('\n');
      return [
        { file_path: filePath, content },
        `File created successfully at: ${filePath} (file state is current in your context — no need to Read it back)`,
        false,
        { type: 'create', filePath, content, structuredPatch: [], originalFile: null, userModified: false },
      ];
    }
    const original = linesOfSize(fileBytes(8000));
    const at = int(0, original.length - 1);
    const removed = Math.min(int(1, 4), original.length - at);
    const { changed, hunk } = changeLines(original, at, removed, linesOfSize(int(50, 600)));
    const content = changed.join('\n');
    return [
      { file_path: filePath, content },
      `The file ${filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${hunk.lines.map((line, index) => `${String(hunk.newStart + index).padStart(6)}→${line.slice(1)}`).join('\n')}`,
      false,
      {
        type: 'update',
        filePath,
        content,
        structuredPatch: [hunk],
        originalFile: original.join('\n'),
        userModified: false,
      },
    ];
  },
  Edit() {
    const filePath = `${CWD}/${relativePath()}`;
    const original = linesOfSize(fileBytes(15000));
    const at = int(0, original.length - 1);
    const removed = Math.min(int(1, 3), original.length - at);
    const added = [
      ...original.slice(at, at + removed - 1),
      `${codeLine()} // ${pick(['fixed', 'corrigé', '修正'])}`,
    ];
    const oldString = original.slice(at, at + removed).join('\n');
    const newString = added.join('\n');
    const input = { replace_all: false, file_path: filePath, old_string: oldString, new_string: newString };
    if (chance(0.08)) {
      const reason = `String to replace not found in file.\nString: ${oldString}`;
      return [input, `<tool_use_error>${reason}</tool_use_error>`, true, `Error: ${reason}`];
    }
    const { hunk } = changeLines(original, at, removed, added);
    return [
      input,
      `The file ${filePath} has been updated successfully. (file state is current in your context — no need to Read it back)`,
      false,
      {
        filePath,
        oldString,
        newString,
        originalFile: original.join('\n'),
        structuredPatch: [hunk],
        userModified: false,
        replaceAll: false,
      },
    ];
  },
  Bash() {
    const command = pick([
      'pnpm test',
      'ls -la',
      'git status --short',
      'pnpm build',
      'grep -rn "TODO" src',
      'node scripts/check.mjs',
    ]);
    const input = {
      command,
      description: pick([
        'Run the tests',
        'List files in the working directory',
        'Build the package',
        'Find TODOs',
      ]),
    };
    const stdout = commandOutput(chance(0.8) ? int(1, 30) : int(30, 250));
    if (chance(0.1)) {
      const stderr = `Error: ${pick(['Cannot find module', 'Modul nicht gefunden', 'モジュールが見つかりません'])} '${relativePath()}'\n    at ${name()} (${CWD}/${relativePath()}:${int(1, 300)}:${int(1, 80)})`;
      const output = `Exit code 1\n${stdout}\n${stderr}`;
      return [input, output, true, `Error: ${output}`];
    }
    const stderr = chance(0.2)
      ? `warning: ${pick(['deprecated option', 'option obsolète'])} --${name()}`
      : '';
    return [
      input,
      stderr === '' ? stdout : `${stdout}\n${stderr}`,
      false,
      { stdout, stderr, interrupted: false, isImage: false, noOutputExpected: false },
    ];
  },
  Read() {
    const filePath = `${CWD}/${relativePath()}`;
    if (chance(0.05)) {
      const reason = `File does not exist. Note: your current working directory is ${CWD}.`;
      return [{ file_path: filePath }, reason, true, `Error: ${reason}`];
    }
    const lines = linesOfSize(fileBytes(8500));
    const content = lines.join('\n');
    return [
      { file_path: filePath },
      lines.map((line, index) => `${String(index + 1).padStart(6)}→${line}`).join('\n'),
      false,
      {
        type: 'text',
        file: { filePath, content, numLines: lines.length, startLine: 1, totalLines: lines.length },
      },
    ];
  },
  Glob() {
    const pattern = pick(['**/*.ts', 'src/**/*.tsx', 'test/**/*.test.ts', '**/*.md']);
    const filenames = Array.from(
      { length: chance(0.8) ? int(0, 40) : int(40, 250) },
      () => `${CWD}/${relativePath()}`,
    );
    return [
      { pattern, ...(chance(0.3) ? { path: CWD } : {}) },
      filenames.length === 0 ? 'No files found' : filenames.join('\n'),
      false,
      { filenames, durationMs: int(1, 120), numFiles: filenames.length, truncated: false },
    ];
  },
};
const TOOL_WEIGHTS = [
  'Read',
  'Read',
  'Read',
  'Edit',
  'Edit',
  'Edit',
  'Bash',
  'Bash',
  'Write',
  'Write',
  'Glob',
  'Glob',
];

// One turn: an optional text line, the tool call's line (same message id) and its result line.
function turnLines() {
  const messageId = `msg_01${chars(ALPHANUMERIC, 22)}`;
  const toolUseId = `toolu_01${chars(ALPHANUMERIC, 22)}`;
  const toolName = pick(TOOL_WEIGHTS);
  const [input, content, isError, result] = TOOLS[toolName]();
  const lines = [
    assistantLine(messageId, { type: 'tool_use', id: toolUseId, name: toolName, input }),
    userLine(toolUseId, content, isError, result),
  ];
  if (chance(0.8)) lines.unshift(assistantLine(messageId, { type: 'text', text: prose() }));
  return { lines, isError };
}

const initLine = {
  type: 'system',
  subtype: 'init',
  cwd: CWD,
  session_id: SESSION_ID,
  tools: ['Task', 'Bash', 'Edit', 'Glob', 'Grep', 'Read', 'WebFetch', 'Write'],
  mcp_servers: [],
  model: 'claude-opus-4-8[1m]',
  permissionMode: 'default',
  apiKeySource: 'ANTHROPIC_API_KEY',
  claude_code_version: '2.1.197',
  output_style: 'default',
  uuid: uuid(),
};

// The lines are made before timing starts, so the pipeline is timed, not the test data.
const lines = [JSON.stringify(initLine)];
let streamBytes = Buffer.byteLength(lines[0]) + 1;
let calls = 0;
let failedCalls = 0;
let largestLine = 0;
while (streamBytes < TARGET_BYTES) {
  const turn = turnLines();
  // A turn with a line over the budget is made again (the random file sizes rarely overshoot).
  const sizes = turn.lines.map((line) => Buffer.byteLength(line));
  if (Math.max(...sizes) > MAX_LINE_BYTES) continue;
  lines.push(...turn.lines);
  for (const size of sizes) streamBytes += size + 1;
  largestLine = Math.max(largestLine, ...sizes);
  calls++;
  if (turn.isError) failedCalls++;
}
const finalText = 'Done. The tests pass — すべてのテストが通りました 🎉.';
lines.push(assistantLine(`msg_01${chars(ALPHANUMERIC, 22)}`, { type: 'text', text: finalText }));
lines.push(
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 3_600_000,
    num_turns: calls + 1,
    result: finalText,
    stop_reason: 'end_turn',
    session_id: SESSION_ID,
    total_cost_usd: 42.5,
    usage: {
      input_tokens: 9_000_000,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 120_000,
    },
    permission_denials: [],
    uuid: uuid(),
  }),
);
for (const line of lines.slice(-2)) streamBytes += Buffer.byteLength(line) + 1;
const smallestLine = Math.min(...lines.map((line) => Buffer.byteLength(line)));

// ---- The cases, each going through its stream a slice per call ----

/**
 * A case that takes the next of `slices` on each call and starts over after the last one:
 * `begin()` makes a pass's state, `step(state, slice)` does one slice, `finish(state)` ends the pass.
 * The pipeline's converter and processor live across slices, as in an agent run.
 */
function cyclic(slices, { begin, step, finish }) {
  let state;
  let next = 0;
  return () => {
    if (next === 0) state = begin();
    step(state, slices[next]);
    if (++next === slices.length) {
      finish?.(state);
      next = 0;
    }
  };
}

/** Index ranges `[start, end)` of consecutive items, each about `bytes` long. */
function slicesOf(sizes, bytes) {
  const slices = [];
  let start = 0;
  let size = 0;
  for (let index = 0; index < sizes.length; index++) {
    size += sizes[index];
    if (size < bytes && index < sizes.length - 1) continue;
    slices.push([start, index + 1]);
    start = index + 1;
    size = 0;
  }
  return slices;
}

const parseLines = (lines, [start, end]) => {
  let count = 0;
  for (let index = start; index < end; index++) count += JSON.parse(lines[index]) === null ? 0 : 1;
  return count;
};

/**
 * A processor as `cairn agent` runs one: the log, the merged display view and (unless `live` is
 * false) the live display, counted.
 */
function countingProcessor(live = true) {
  const counts = { log: 0, display: 0, executions: 0, unfinished: 0, running: 0 };
  const display = new LiveDisplay((message) => {
    counts.display++;
    if (message.partType !== 'tool_execution') return;
    const status = message.toolExecution?.status;
    if (status === 'running') counts.running++;
    else counts.executions++;
    if (status === 'unfinished') counts.unfinished++;
  });
  const processor = createMessageProcessor({
    merge: true,
    onLogMessage: () => counts.log++,
    onDisplayMessage: display.logged,
    ...(live ? { onLiveDisplayMessage: display.live } : {}),
  });
  return { counts, processor };
}

// The synthetic stream: converter → processor, line by line.
const syntheticSlices = slicesOf(
  lines.map((line) => Buffer.byteLength(line) + 1),
  SLICE_BYTES,
);
let pipelineCounts;
const syntheticPipeline = (live = true) =>
  cyclic(syntheticSlices, {
    begin: () => ({ converter: createClaudeCodeConverter(), ...countingProcessor(live) }),
    step: ({ converter, processor }, [start, end]) => {
      for (let index = start; index < end; index++)
        for (const event of converter.push(lines[index])) processor.push(event);
    },
    finish: ({ converter, processor, counts }) => {
      for (const event of converter.end()) processor.push(event);
      processor.end();
      if (live) pipelineCounts = counts;
    },
  });
const syntheticBare = cyclic(syntheticSlices, { begin: () => lines, step: parseLines });

/** Converter → processor over the whole synthetic stream; `sample(index)` runs after each line. */
function runPipeline(sample) {
  const converter = createClaudeCodeConverter();
  const { counts, processor } = countingProcessor();
  for (let index = 0; index < lines.length; index++) {
    for (const event of converter.push(lines[index])) processor.push(event);
    sample?.(index);
  }
  for (const event of converter.end()) processor.push(event);
  processor.end();
  return counts;
}

// ---- The real captures: whole sessions one after another, their ids made unique per copy ----

const REAL_TARGET_BYTES = 20 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const realDir = new URL('../../agent-cli/fixtures/real/claude-code/', import.meta.url);
const captures = readdirSync(realDir)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => readFileSync(new URL(name, realDir), 'utf8'));
const realParts = [];
let realBytes = 0;
for (let copy = 0; realBytes < REAL_TARGET_BYTES; copy++) {
  for (const capture of captures) {
    const text = capture
      .replaceAll('toolu_mock', `toolu_r${copy}_mock`)
      .replaceAll('msg_mock', `msg_r${copy}_mock`);
    realParts.push(text.endsWith('\n') ? text : `${text}\n`);
    realBytes += Buffer.byteLength(realParts.at(-1));
  }
}
const realStream = Buffer.from(realParts.join(''));
// The stream as the CLI's stdout arrives: chunks that cut lines anywhere.
const realChunks = [];
for (let start = 0; start < realStream.length; start += CHUNK_BYTES)
  realChunks.push(realStream.subarray(start, start + CHUNK_BYTES));
const realLines = realStream
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '');
// Slices of chunks for the pipeline; for the bare parse, the lines those chunks complete.
const realChunkSlices = slicesOf(
  realChunks.map((chunk) => chunk.length),
  SLICE_BYTES,
);
const realLineSlices = [];
{
  const splitter = new LineSplitter();
  let line = 0;
  for (const [start, end] of realChunkSlices) {
    let completed = 0;
    for (let index = start; index < end; index++) completed += splitter.push(realChunks[index]).length;
    if (end === realChunks.length) completed += splitter.end().length;
    realLineSlices.push([line, line + completed]);
    line += completed;
  }
  if (line !== realLines.length) throw new Error(`${line} lines split, ${realLines.length} expected`);
}

// Line splitting → converter → processor over the real captures' chunks, as the executor runs them
// (`runAgent` of @cairn/agent-executor): a chunk's lines converted, then their events processed.
const pushLines = ({ converter, processor }, lines) => {
  const events = [];
  for (const line of lines) for (const event of converter.push(line)) events.push(event);
  for (const event of events) processor.push(event);
};
let realCounts;
const realPipeline = cyclic(realChunkSlices, {
  begin: () => ({
    splitter: new LineSplitter(),
    converter: createClaudeCodeConverter(),
    ...countingProcessor(),
  }),
  step: (state, [start, end]) => {
    for (let index = start; index < end; index++) pushLines(state, state.splitter.push(realChunks[index]));
  },
  finish: (state) => {
    pushLines(state, state.splitter.end());
    for (const event of state.converter.end()) state.processor.push(event);
    state.processor.end();
    realCounts = state.counts;
  },
});
// The bare consumer of the same stdout: the same chunks split into lines, each line parsed. The
// splitting and decoding are on both sides, so the ratio is what the converter and the processor
// add. The lines split once beforehand, parsed alone, are the figure's second baseline (shown).
const parseChunks = (splitter, [start, end]) => {
  let count = 0;
  for (let index = start; index < end; index++)
    for (const line of splitter.push(realChunks[index])) count += JSON.parse(line) === null ? 0 : 1;
  return count;
};
const realBare = cyclic(realChunkSlices, {
  begin: () => new LineSplitter(),
  step: parseChunks,
  finish: (splitter) => {
    for (const line of splitter.end()) JSON.parse(line);
  },
});
const realLinesBare = cyclic(realLineSlices, { begin: () => realLines, step: parseLines });

// ---- Timing: CPU time of slice against slice, alternating, no forced GC ----

/** `candidate` ÷ `baseline` over `passes` passes through their streams, after one pass each to warm up. */
async function compare(baseline, candidate, slices, passes) {
  await pairedCpu({ baseline, candidate, callsPerBlock: 1, pairs: slices });
  return pairedCpu({ baseline, candidate, callsPerBlock: 1, pairs: passes * slices });
}
const synthetic = await compare(syntheticBare, syntheticPipeline(), syntheticSlices.length, PASSES);
const live = await compare(syntheticPipeline(false), syntheticPipeline(), syntheticSlices.length, PASSES);
const real = await compare(realBare, realPipeline, realChunkSlices.length, REAL_PASSES);
const realFromLines = await compare(realLinesBare, realPipeline, realChunkSlices.length, REAL_PASSES);
// Per pass through the stream, in milliseconds.
const perPass = (result, slices) => ({
  baseline: result.baseline * slices.length,
  candidate: result.candidate * slices.length,
});
const times = {
  pipeline: perPass(synthetic, syntheticSlices).candidate,
  bare: perPass(synthetic, syntheticSlices).baseline,
  withoutLive: perPass(live, syntheticSlices).baseline,
  withLive: perPass(live, syntheticSlices).candidate,
  realPipeline: perPass(real, realChunkSlices).candidate,
  realBare: perPass(real, realChunkSlices).baseline,
  realLinesBare: perPass(realFromLines, realChunkSlices).baseline,
};
// Each turn's text and call must make one assistant message, and every call come out merged with
// its result: otherwise the pipeline did less than it should.
if (pipelineCounts.log !== 2 * calls + 1)
  throw new Error(`${pipelineCounts.log} log messages for ${calls} turns, expected ${2 * calls + 1}`);
if (
  pipelineCounts.executions !== calls ||
  pipelineCounts.unfinished !== 0 ||
  pipelineCounts.running !== calls
)
  throw new Error(
    `${pipelineCounts.executions} tool executions (${pipelineCounts.unfinished} unfinished, ${pipelineCounts.running} shown running) for ${calls} calls`,
  );
// Every call of the real captures is shown running, then finished (or unfinished) in its place.
if (realCounts.running === 0 || realCounts.executions < realCounts.running)
  throw new Error(
    `real captures: ${realCounts.running} calls shown running, ${realCounts.executions} executions`,
  );

// ---- Memory: one more pipeline pass, the heap sampled after forced GCs ----

const sampleAt = new Map(
  HEAP_SAMPLES_AT.map((fraction) => [Math.ceil(lines.length * fraction) - 1, fraction]),
);
const heapSamples = [];
runPipeline((index) => {
  const fraction = sampleAt.get(index);
  if (fraction === undefined) return;
  gc();
  heapSamples.push({ at: fraction, heapUsedMB: process.memoryUsage().heapUsed / 1024 / 1024 });
});
const heapGrowth = heapSamples.at(-1).heapUsedMB - heapSamples[0].heapUsedMB;

const megabytes = streamBytes / 1024 / 1024;
const throughput = (ms) => megabytes / (ms / 1000);
const ok = report(
  '@cairn/message-processor: Claude Code stream → log + merged display vs bare JSON.parse',
  [
    {
      name: 'pipeline time ÷ bare JSON.parse time',
      value: synthetic.ratio,
      goal: 2,
      detail: `CPU per pass ${times.pipeline.toFixed(0)} ms (${throughput(times.pipeline).toFixed(0)} MB/s) vs ${times.bare.toFixed(0)} ms (${throughput(times.bare).toFixed(0)} MB/s); ≤ 2 is the same as a throughput ratio ≥ 0.5`,
      peer: { name: 'bare JSON.parse', value: times.bare, unit: 'ms' },
    },
    {
      name: 'throughput ratio (pipeline ÷ bare JSON.parse)',
      value: 1 / synthetic.ratio,
      detail: 'issue goal ≥ 0.5, checked by the figure above',
      peer: { name: 'bare JSON.parse', value: throughput(times.bare), unit: 'MB/s' },
    },
    {
      name: 'live display cost: pipeline time ÷ the same without live display',
      value: live.ratio,
      detail: `${times.withLive.toFixed(0)} ms vs ${times.withoutLive.toFixed(0)} ms: showing each call running when it starts`,
      peer: { name: 'without live display', value: times.withoutLive, unit: 'ms' },
    },
    {
      name: 'real Claude Code captures: pipeline time ÷ bare JSON.parse time',
      value: real.ratio,
      goal: 2,
      detail: `line splitting → converter → processor (log, merged display, live display) over ${captures.length} real captures replayed to ${(realStream.length / 1024 / 1024).toFixed(0)} MB in ${CHUNK_BYTES / 1024} KB chunks: ${times.realPipeline.toFixed(0)} ms vs the same chunks split and JSON.parse'd, ${times.realBare.toFixed(0)} ms`,
      peer: { name: 'line splitting + bare JSON.parse', value: times.realBare, unit: 'ms' },
    },
    {
      name: 'real captures: pipeline time ÷ JSON.parse of lines split beforehand',
      value: realFromLines.ratio,
      detail: `the same pipeline against parsing alone (${times.realLinesBare.toFixed(0)} ms): its line splitting and decoding counted on its side only`,
      peer: { name: 'bare JSON.parse', value: times.realLinesBare, unit: 'ms' },
    },
    {
      name: 'heap growth, 10% → 100% of the stream (after GC)',
      value: heapGrowth,
      goal: HEAP_GROWTH_GOAL_MB,
      unit: 'MB',
      detail: `heapUsed at ${heapSamples.map(({ at, heapUsedMB }) => `${at * 100}%: ${heapUsedMB.toFixed(1)} MB`).join(', ')} (the stream's lines are held throughout)`,
    },
  ],
  {
    streamBytes,
    lines: lines.length,
    lineBytes: { smallest: smallestLine, largest: largestLine },
    toolCalls: calls,
    failedToolCalls: failedCalls,
    logMessages: pipelineCounts.log,
    displayMessages: pipelineCounts.display,
    heapSamples,
    real: { captures: captures.length, bytes: realStream.length, lines: realLines.length, ...realCounts },
    timing: {
      sliceBytes: SLICE_BYTES,
      passes: { synthetic: PASSES, real: REAL_PASSES },
      ...Object.fromEntries(
        Object.entries({ synthetic, live, real, realFromLines }).map(([name, result]) => [
          name,
          {
            pairs: result.pairs,
            preemptedPairs: result.preemptedPairs,
            ratioQuartiles: result.groupQuartiles,
          },
        ]),
      ),
    },
  },
);
process.exitCode = ok ? 0 : 1;
