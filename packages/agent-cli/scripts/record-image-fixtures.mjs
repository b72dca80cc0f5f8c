#!/usr/bin/env node
// Records fixtures/real-image/*.jsonl: the real Claude Code and Gemini CLI reading a PNG in their
// workspace, Claude Code reading a PDF, and Claude Code given the PNG in its stream-json input (the
// stand-in of the vendor API scripts the turns), offline like record-real-fixtures.mjs, whose harness
// this uses; and writes fixtures/real-image/README.md. The PNG and the PDF are made here, the same
// bytes every time.
//
//   pnpm --filter @cairn/agent-cli fixtures:record-images
//
// Needs @cairn/testing built (`pnpm --filter @cairn/testing build`).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import {
  agentCliIsolation,
  agentCliOfflineEnvironment,
  agentCliScenarios,
  agentClis,
  isolatedCommand,
  resolveAgentCli,
  runAgentCliScenario,
  scrubMachinePaths,
  startAgentCliStandIn,
} from '@cairn/testing/agent-clis';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
const workspaceDirectory = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const fixturesDirectory = join(packageDirectory, 'fixtures', 'real-image');

const WIDTH = 800;
const HEIGHT = 600;

// CRC-32 of PNG chunks.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
};

// An 800×600 RGB PNG: flat colour with two rows of pseudo-random pixels, so its bytes (about 5 KB)
// are more than a store keeps inline (INLINE_DATA_LIMIT) and the fixture stays small.
function screenshotPng() {
  const rows = [];
  let seed = 42;
  for (let y = 0; y < HEIGHT; y++) {
    const row = Buffer.alloc(1 + WIDTH * 3);
    const noisy = y === 299 || y === 300;
    for (let x = 0; x < WIDTH * 3; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      row[1 + x] = noisy ? seed >> 16 : y < 300 ? 0x30 : 0xd0;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const readImage = {
  name: 'read-image',
  description: 'the model reads a PNG in the workspace, then describes it',
  turn: ({ turn }) =>
    [
      { text: 'Looking at the screenshot.', actions: [{ kind: 'read', path: 'shot.png' }] },
      { text: 'The screenshot is two flat halves split by a noisy line.' },
    ][turn],
};

const describeImage = {
  name: 'describe-image',
  description: 'the user sends an image with the prompt; the model answers',
  turn: ({ turn }) => [{ text: 'Two flat halves split by a noisy line.' }][turn],
};

// Claude Code given the image in its input (\`--input-format stream-json\`), echoing it
// (\`--replay-user-messages\`): the run the harness cannot make, as its CLI gets no stdin.
const INPUT_ARGS = [
  '-p',
  '--input-format',
  'stream-json',
  '--output-format',
  'stream-json',
  '--verbose',
  '--replay-user-messages',
];

async function recordClaudeCodeInputImage() {
  const cli = agentClis['claude-code'];
  const root = await mkdtemp('/tmp/cairn-agent-cli-');
  const cwd = join(root, 'work');
  const home = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  const standIn = await startAgentCliStandIn({
    wire: cli.wire,
    dialect: cli.dialect,
    cwd,
    scenarios: { ...agentCliScenarios, [describeImage.name]: describeImage },
  });
  try {
    await cli.writeSettings(home, { prompt: '', permissions: [] }, standIn.baseURL);
    const env = agentCliOfflineEnvironment({ home, origin: standIn.origin });
    const resolved = resolveAgentCli(cli, import.meta.url);
    const args = [...resolved.args, ...INPUT_ARGS];
    const isolation = agentCliIsolation();
    const spawned =
      isolation.kind === 'network-namespace'
        ? isolatedCommand(resolved.command, args, { socketPath: standIn.socketPath, port: standIn.port })
        : { command: resolved.command, args };
    const child = spawn(spawned.command, spawned.args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.resume();
    const prompt = {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this screenshot? [scenario:describe-image]' },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: screenshotPng().toString('base64') },
          },
        ],
      },
    };
    child.stdin.end(`${JSON.stringify(prompt)}\n`);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const file = 'claude-code-input-image.jsonl';
    const scrub = (text) => scrubMachinePaths(text, root, { workspace: workspaceDirectory });
    await writeFile(join(fixturesDirectory, file), scrub(Buffer.concat(stdout).toString('utf8')));
    console.log(`claude-code (image input): exit ${code}`);
    return [
      `\`${file}\``,
      `\`${cli.packageName}@${resolved.version}\``,
      `\`${JSON.stringify(INPUT_ARGS)}\`, stdin: one \`user\` line with the prompt and the PNG as an \`image\` block`,
      String(code),
      isolation.kind,
    ];
  } finally {
    await standIn.close();
  }
}

// A one-page PDF saying "Hello, Cairn".
const REPORT_PDF = `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length 44>>stream
BT /F1 18 Tf 20 40 Td (Hello, Cairn) Tj ET
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>
%%EOF
`;

const readPdf = {
  name: 'read-pdf',
  description: 'the model reads a PDF in the workspace, then answers',
  turn: ({ turn }) =>
    [
      { text: 'Reading the report.', actions: [{ kind: 'read', path: 'report.pdf' }] },
      { text: 'The report says Hello, Cairn.' },
    ][turn],
};

// Each recording: the CLI, the file put in its workspace, the scenario and its prompt.
const PLANS = [
  {
    cli: 'claude-code',
    fixture: 'read-image',
    permissions: ['Read'],
    file: ['shot.png', screenshotPng()],
    scenario: readImage,
    prompt: 'Look at shot.png. [scenario:read-image]',
  },
  {
    cli: 'gemini-cli',
    fixture: 'read-image',
    permissions: ['read_file'],
    file: ['shot.png', screenshotPng()],
    scenario: readImage,
    prompt: 'Look at shot.png. [scenario:read-image]',
  },
  {
    cli: 'claude-code',
    fixture: 'read-pdf',
    permissions: ['Read'],
    file: ['report.pdf', REPORT_PDF],
    scenario: readPdf,
    prompt: 'Read report.pdf. [scenario:read-pdf]',
  },
];

// A Markdown table with its columns padded, as the formatter (Biome) writes it.
function markdownTable(header, body) {
  const widths = header.map((_, column) => Math.max(...[header, ...body].map((row) => row[column].length)));
  const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

const rows = new Map();
for (const plan of PLANS) {
  const name = plan.cli;
  const root = await mkdtemp('/tmp/cairn-agent-cli-');
  await mkdir(join(root, 'work'), { recursive: true });
  await writeFile(join(root, 'work', plan.file[0]), plan.file[1]);
  const result = await runAgentCliScenario({
    cli: agentClis[name],
    callerUrl: import.meta.url,
    root,
    scenarios: { ...agentCliScenarios, [plan.scenario.name]: plan.scenario },
    run: { scenario: plan.scenario.name, prompt: plan.prompt, permissions: plan.permissions },
  });
  console.log(`${name}/${plan.fixture}: exit ${result.code ?? result.signal}, ${result.stdout.length} bytes`);
  if (result.timedOut) throw new Error(`${name} timed out\n${result.stderr}`);
  const scrub = (text) => scrubMachinePaths(text, root, { workspace: workspaceDirectory });
  const file = `${name}-${plan.fixture}.jsonl`;
  await writeFile(join(fixturesDirectory, file), scrub(result.stdout.toString('utf8')));
  const args = agentClis[name].args({ prompt: plan.prompt, permissions: plan.permissions }).map(scrub);
  rows.set(file, [
    `\`${file}\``,
    `\`${agentClis[name].packageName}@${result.version}\``,
    `\`${JSON.stringify(args)}\``,
    String(result.code ?? result.signal),
    result.isolation.kind,
  ]);
}
rows.set('claude-code-input-image.jsonl', await recordClaudeCodeInputImage());
await writeFile(
  join(fixturesDirectory, 'README.md'),
  `# Real agent-CLI fixtures: reading an image or a PDF

Generated by \`node scripts/record-image-fixtures.mjs\`; do not edit by hand. Each \`.jsonl\` is the
unmodified stdout of a real CLI from the npm registry, run offline against the scripted stand-in of its
vendor API (\`@cairn/testing/agent-clis\`; scenario \`read-image\`: turn 0 reads \`shot.png\`, turn 1
answers; \`read-pdf\` the same with \`report.pdf\`, a one-page PDF of ${REPORT_PDF.length} bytes),
with the run's temporary directory written as \`/tmp/cairn-agent-cli-XXXXXX\` (the same
substitution as \`fixtures/real\`). \`shot.png\` is an 800×600 PNG the script makes (${screenshotPng().length} bytes).

${markdownTable(
  ['file', 'CLI', 'arguments', 'exit', 'isolation'],
  [...rows.keys()].sort().map((key) => rows.get(key)),
)}

- Claude Code prints the Read's result as a \`tool_result\` whose \`content\` is one \`image\` block
  (\`source: {type: 'base64', media_type, data}\`); the line's \`tool_use_result\` repeats the bytes
  (\`file.base64\`) with \`originalSize\` and \`dimensions\`.
- A Read of a PDF prints the result's content as text (\`PDF file read: <path> (<n> bytes)\`) with the bytes
  in \`tool_use_result.file.base64\` (\`type: 'pdf'\`, \`filePath\`, \`originalSize\`); the model gets them as a
  \`document\` block beside the \`tool_result\`, which stream-json does not print.
- Given an image in its stream-json input, Claude Code echoes the \`user\` line (\`isReplay: true\`) with
  the \`text\` and \`image\` blocks as sent.
- Gemini CLI sends the image to the model as \`inlineData\` but prints only the tool's display text
  (\`"output":"Read image file: shot.png"\`): its stream-json carries no bytes.
`,
);
