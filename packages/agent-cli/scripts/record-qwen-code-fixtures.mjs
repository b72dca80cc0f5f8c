#!/usr/bin/env node
// Records real Qwen Code runs (`qwen --output-format stream-json`) against the loopback OpenAI
// Chat Completions mock of @cairn/testing, as fixtures for the converter tests
// (packages/agent-cli/fixtures/real/qwen-code/<scenario>.jsonl), with the general recorder of
// record-codex-fixtures.mjs. Root needed (`unshare -n`); the CLI comes from QWEN_BIN (default: the
// npm install in /tmp/ncodex-clis: `npm i @qwen-code/qwen-code@0.15.10`).
//
//   node packages/agent-cli/scripts/record-qwen-code-fixtures.mjs [scenario…]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordFixtures } from './record-codex-fixtures.mjs';

const call = (name, args) => ({ name, arguments: args });
const shell = (command) => call('run_shell_command', { command });
const LONG_COMMAND = "python3 -c 'import time; time.sleep(30)'";

const QWEN_CODE = {
  name: 'qwen-code',
  bin: process.env.QWEN_BIN ?? '/tmp/ncodex-clis/node_modules/.bin/qwen',
  provider: 'openai',
  // Qwen Code's first request has no tool result yet; its requests pass the API's rules.
  validateRequests: true,
  /** `~/.qwen/settings.json`: OpenAI-compatible auth, nothing reported anywhere. */
  setup: (home) => {
    mkdirSync(join(home, '.qwen'), { recursive: true });
    const settings = {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'openai' } },
      general: { enableAutoUpdate: false },
    };
    writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2));
  },
  env: (home, baseURL) => ({
    PATH: process.env.PATH,
    HOME: home,
    OPENAI_API_KEY: 'dummy',
    OPENAI_BASE_URL: baseURL,
    OPENAI_MODEL: 'qwen3-coder-plus',
    LANG: 'C.UTF-8',
  }),
  args: ({ prompt, resume }) => [
    '--output-format',
    'stream-json',
    '--yolo',
    ...(resume === undefined ? [] : [`--resume=${resume}`]),
    // After `--` Qwen Code 0.15.10 finds no prompt ("No input provided via stdin"): the option it is.
    `--prompt=${prompt}`,
  ],
  /** The scripted model; Qwen Code's file tools take absolute paths. */
  scripts: (cwd) => ({
    main: [
      {
        text: 'Creating hello.txt.',
        toolCalls: [
          call('write_file', { file_path: `${cwd}/hello.txt`, content: 'Hello, world!\nSecond line.\n' }),
        ],
      },
      {
        text: 'Editing it.',
        toolCalls: [
          call('edit', {
            file_path: `${cwd}/hello.txt`,
            old_string: 'Hello, world!',
            new_string: 'Hello, Cairn!',
          }),
        ],
      },
      { toolCalls: [shell('ls -la')] },
      {
        text: 'Reading a missing file.',
        toolCalls: [call('read_file', { file_path: `${cwd}/does-not-exist.txt` })],
      },
      { text: 'Done: hello.txt says Hello, Cairn!' },
    ],
    resume: [
      (request) => ({
        text: `I see ${request.body?.messages?.length ?? 0} messages.`,
        toolCalls: [shell('cat hello.txt')],
      }),
      { text: 'It still says Hello, Cairn!' },
    ],
    err400: [{ fault: { status: 400, message: 'mock: this request is invalid' } }],
    // Qwen Code refuses `sleep 30` ("Blocked: standalone sleep 30. Run blocking commands in the
    // background…"), with `&& echo` too: a sleep it does not recognise.
    sleep: [{ text: 'Waiting.', toolCalls: [shell(LONG_COMMAND)] }, { text: 'Slept.' }],
  }),
  runs: [
    {
      file: 'main',
      scenario: 'main',
      prompt: 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.',
    },
    { file: 'resume', scenario: 'resume', prompt: 'Is hello.txt still there?', resumeFrom: 'main' },
    { file: 'err400', scenario: 'err400', prompt: 'Say hi.' },
    { file: 'sigint-sleep', scenario: 'sleep', prompt: 'Wait.', signal: 'SIGINT' },
    { file: 'sigterm-sleep', scenario: 'sleep', prompt: 'Wait.', signal: 'SIGTERM' },
  ],
  isRunningCommand: (line) => line.includes('"tool_use"') && line.includes('time.sleep(30)'),
  longCommand: 'time.sleep(30)',
  sessionIdOf: (stdout) => /"session_id":"([^"]+)"/.exec(stdout)?.[1],
};

await recordFixtures(QWEN_CODE);
