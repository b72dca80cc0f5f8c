import type { RecordedRequest, ScriptTurn } from '@cairn/testing';

/** The prompts the browser test types, and what the mock model answers to each. */
export const PROMPTS = {
  hello: 'Say hello',
  tool: 'What do my notes say?',
  stop: 'Tell me a long story',
  reload: 'Count to sixty, slowly',
  fail: 'Fail once, then answer',
  build: 'Run the build',
  deploy: 'Deploy it',
  check: 'Run the checks',
} as const;

/**
 * The commands the model asks to run (`run_command` needs approval): each leaves a line in a file of
 * the workspace, so the test sees whether it ran, and how often.
 */
export const COMMANDS = {
  build: 'echo built | tee -a build.log',
  deploy: 'echo deployed | tee -a deploy.log',
  check: 'echo checked | tee -a check.log',
} as const;

type CommandName = keyof typeof COMMANDS;

export const NOTES = 'Buy milk. Call Ada about the garden.';

export const REPLIES = {
  hello: 'Hello from Cairn, streamed to useChat.',
  tool: 'Your notes say to buy milk and to call Ada about the garden.',
  // Slow on purpose (the mock's chunk delays below): the story streams for half a minute unless
  // stopped, the count for about 8 s, the checks' report for about 5 s, so Stop and the reloads land
  // while they stream.
  stop: Array.from({ length: 400 }, (_, index) => `Chapter ${index + 1}.`).join(' '),
  reload: Array.from({ length: 60 }, (_, index) => String(index + 1)).join(' '),
  recovered: 'Recovered: the second try answered.',
  build: 'The build ran and wrote build.log.',
  deploy: 'Not deploying it, as you said.',
  check: Array.from({ length: 30 }, (_, index) => `Check ${index + 1} passed.`).join(' '),
} as const;

export const USAGE = { inputTokens: 21, outputTokens: 13 };

interface OpenAIChatRequest {
  messages?: Array<{ role: string; content?: unknown }>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * The mock model's turns (for `startMockProviderServer`), chosen by the last user message of each
 * request: the first request for {@link PROMPTS.fail} fails with an HTTP 400 (not retried), later
 * ones answer, so the page's Retry gets an answer.
 */
export function chatModelTurns(): (request: RecordedRequest) => ScriptTurn {
  let failures = 0;
  return (request) => {
    const messages = (request.body as OpenAIChatRequest).messages ?? [];
    const last = messages.at(-1);
    const prompt = textOf(messages.findLast((message) => message.role === 'user')?.content);
    if (prompt === PROMPTS.tool) {
      return last?.role === 'tool'
        ? { text: REPLIES.tool, usage: USAGE }
        : {
            toolCalls: [{ id: 'call_notes', name: 'read_file', arguments: { path: 'notes.txt' } }],
            usage: USAGE,
          };
    }
    // A command the page approves or denies: after the tool's result (its output or the denial), the answer.
    const command = (Object.keys(COMMANDS) as CommandName[]).find((name) => PROMPTS[name] === prompt);
    if (command !== undefined) {
      if (last?.role !== 'tool') {
        const call = {
          id: `call_${command}`,
          name: 'run_command',
          arguments: { command: COMMANDS[command] },
        };
        return { toolCalls: [call], usage: USAGE };
      }
      return command === 'check'
        ? { text: REPLIES.check, chunkSize: 6, chunkDelayMs: 60, usage: USAGE }
        : { text: REPLIES[command], usage: USAGE };
    }
    if (prompt === PROMPTS.stop) return { text: REPLIES.stop, chunkSize: 6, chunkDelayMs: 40, usage: USAGE };
    if (prompt === PROMPTS.reload)
      return { text: REPLIES.reload, chunkSize: 3, chunkDelayMs: 150, usage: USAGE };
    if (prompt === PROMPTS.fail) {
      failures += 1;
      return failures === 1
        ? { fault: { status: 400, message: 'mock model: this request is refused once' } }
        : { text: REPLIES.recovered, usage: USAGE };
    }
    return {
      text: REPLIES.hello,
      chunkSize: 4,
      chunkDelayMs: 5,
      usage: USAGE,
      reasoning: 'The user greets me.',
    };
  };
}
