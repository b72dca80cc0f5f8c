const block = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** The examples each command's `--help` ends with. */
export const examples = {
  root: `${block([
    'cairn                                  # chat (the offline demo model when no API key is set)',
    'cairn demo                             # a guided tour on a sample workspace',
    'cairn -p "summarise README.md"         # one answer, for scripts',
    'OPENAI_API_KEY=… cairn --model gpt-4.1-mini',
    'cairn --provider openai-compatible --base-url http://localhost:11434/v1 -m llama3.2',
    'cairn conversations list',
  ])}
Model: --provider/--model, else the first key found (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or
GOOGLE_API_KEY), else OPENAI_BASE_URL, else a local server on localhost:11434, else the scripted demo.
Settings: flags, then the environment, then cairn.config.json. Exit codes: 0 ok, 2 invalid input, 3 store,
4 model provider, 5 tool loop, 6 agent CLI, 130 aborted (Ctrl-C); 143 SIGTERM, 129 hang-up, 141 output
closed, as for any tool whose pipe closed (each after storing the turn so far).
`,
  chat: block([
    'cairn chat',
    'cairn chat what does this project do',
    'cairn chat --continue',
    'cairn chat --attach screenshot.png what is wrong here?   # or @screenshot.png in a message',
    'cairn -p "Summarise this" --attach report.pdf',
    'cairn chat --resume chat-20261122-1530-a1b2c3',
    'cairn -p "what does src/index.ts export?" --json | jq -c .type',
  ]),
  demo: block(['cairn demo', 'cairn demo --data-dir /tmp/cairn-demo']),
  conversations: block([
    'cairn conversations list --limit 5',
    'cairn conversations show chat-20261122-1530-a1b2c3',
    'cairn conversations export chat-20261122-1530-a1b2c3 --format md -o chat.md',
    'cairn conversations delete chat-20261122-1530-a1b2c3',
  ]),
  workflow: block([
    'cairn workflow init                    # writes a sample: workflow.yaml',
    'cairn workflow run workflow.yaml --input "Review README.md"',
    'cairn runs list',
  ]),
  workflowInit: block([
    'cairn workflow init',
    'cairn workflow init flows/review.yaml',
    'cairn workflow init review.yaml --force     # replaces review.yaml',
  ]),
  workflowRun: block([
    'cairn workflow run workflow.yaml --input "Review README.md"',
    'cairn workflow run workflows.json --workflow triage',
  ]),
  conversationsList: block(['cairn conversations list --limit 5', 'cairn conversations list --json']),
  conversationsShow: block(['cairn conversations show chat-20261122-1530-a1b2c3 --verbose']),
  conversationsExport: block([
    'cairn conversations export chat-20261122-1530-a1b2c3 > chat.jsonl',
    'cairn conversations export chat-20261122-1530-a1b2c3 --format md -o chat.md',
  ]),
  conversationsDelete: `${block([
    'cairn conversations delete chat-20261122-1530-a1b2c3',
    'cairn conversations delete chat-20261122-1530-a1b2c3 --yes   # without asking (scripts)',
  ])}
At a terminal it asks first: y deletes; any other key keeps the conversation and exits with code 1.
Without a terminal it deletes nothing unless --yes is given.
`,
  approvals: `${block([
    'cairn -p "run the tests"                # a call needing approval waits; stderr says how to decide it',
    'cairn approvals list chat-20261122-1530-a1b2c3',
    'cairn approvals approve chat-20261122-1530-a1b2c3 m-1.a0',
    'cairn approvals deny chat-20261122-1530-a1b2c3 m-1.a0 --reason "not on main"',
    'cairn chat --resume chat-20261122-1530-a1b2c3   # asks about them at the terminal instead',
  ])}
A request is stored before anyone is asked and decided once: a second decision, from any process,
is refused (APPROVAL_ALREADY_DECIDED) and nothing runs twice. After deciding, the conversation goes on.
Exit codes: 0 decided (and the conversation went on), 1 already decided, expired, not found or not this
terminal's to decide (APPROVAL_*), 2 invalid input, 3 no such conversation, 5 --input the tool refuses.
`,
  approvalsList: block([
    'cairn approvals list chat-20261122-1530-a1b2c3',
    'cairn approvals list chat-20261122-1530-a1b2c3 --json | jq -r "select(.status == "pending") | .id"',
  ]),
  approvalsApprove: block([
    'cairn approvals approve chat-20261122-1530-a1b2c3 m-1.a0',
    'cairn approvals approve chat-20261122-1530-a1b2c3 m-1.a0 --input \'{"command":"npm test -- --bail"}\'',
  ]),
  approvalsDeny: block([
    'cairn approvals deny chat-20261122-1530-a1b2c3 m-1.a0',
    'cairn approvals deny chat-20261122-1530-a1b2c3 m-1.a0 --reason "use the staging database"',
  ]),
  runs: block(['cairn runs list', 'cairn runs show r1', 'cairn runs continue r1 --input "approved"']),
  runsList: block(['cairn runs list', 'cairn runs list --json --limit 100']),
  runsShow: block(['cairn runs show r1']),
  runsContinue: block(['cairn runs continue r1', 'cairn runs continue r1 --input "approved"']),
  agent: block([
    'cairn agent claude "add a test for src/parse.ts" --cwd ~/project --permissions edit',
    'cairn agent claude --resume "now run the tests" --allow "Bash(npm test)"',
    'cairn agent gemini "explain the build" --json',
    'cairn agent codex "fix the failing test" --cwd ~/project',
  ]),
  convert: block([
    'cairn convert --from claude-code session.jsonl --view display --format md > session.md',
    'claude -p --output-format stream-json --verbose "hi" | cairn convert --from claude-code -',
  ]),
};
