import { readFileSync } from 'node:fs';
import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import { createGeminiCliConverter } from '@cairn/agent-cli/gemini-cli';
import type { AgentOutput, ConversationMessage } from '@cairn/core';
import { createMessageProcessor } from '@cairn/message-processor';
import { describe, expect, it } from 'vitest';
import { RunOutcome } from './run-outcome.js';

// The real CLIs' recordings (packages/agent-cli/fixtures/real), as the executor sees them: each
// event goes to the run's outcome and to the message processor that writes the log.
const NOW = new Date('2026-11-26T12:00:00.000Z');
const real = (cli: string, name: string): string[] =>
  readFileSync(new URL(`../../agent-cli/fixtures/real/${cli}/${name}.jsonl`, import.meta.url), 'utf8').split(
    '\n',
  );

function run(cli: 'claude-code' | 'gemini-cli', name: string) {
  const converter =
    cli === 'claude-code'
      ? createClaudeCodeConverter({ now: () => NOW })
      : createGeminiCliConverter({ now: () => NOW });
  const outcome = new RunOutcome();
  const log: ConversationMessage[] = [];
  const processor = createMessageProcessor({
    onLogMessage: (message) => log.push(message),
    now: () => NOW.getTime(),
  });
  const events: AgentOutput[] = [
    ...real(cli, name).flatMap((line) => converter.push(line)),
    ...converter.end(),
  ];
  for (const event of events) {
    outcome.observe(event);
    processor.push(event);
  }
  processor.end();
  return { outcome, log, events };
}

const errorsOf = (log: ConversationMessage[]) => log.filter((message) => message.partType === 'error');

describe('RunOutcome on the real CLIs', () => {
  it("makes Claude Code's API error the run's one error, with its LLM code, stored after the text before it", () => {
    const { outcome, log } = run('claude-code', 'apierr');
    expect(outcome.reportedError).toEqual({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringMatching(/^Repeated 529 Overloaded errors\. The API is at capacity/),
    });
    expect(errorsOf(log)).toEqual([
      expect.objectContaining({
        role: 'assistant',
        errorCode: 'LLM_UNAVAILABLE',
        content: outcome.reportedError?.message,
      }),
    ]);
    // Never model output: no assistant text says "API Error".
    const assistantTexts = log.filter(
      (message) => message.role === 'assistant' && message.partType !== 'error',
    );
    expect(assistantTexts.map((message) => message.content).join('\n')).not.toContain('API Error');
    const last = log.at(-1);
    expect(last?.partType).toBe('error');
    const stepTwo = log.findIndex((message) => message.content === 'Step two.');
    expect(stepTwo).toBeGreaterThan(-1);
    expect(stepTwo).toBeLessThan(log.indexOf(last as ConversationMessage));
  });

  it("stores neither Claude Code's interruption line nor its ede_diagnostic as what the user or the error said", () => {
    const { outcome, log } = run('claude-code', 'sigint-sleep');
    expect(outcome.reportedError).toEqual({
      code: 'LLM_ABORTED',
      message: 'Claude Code was interrupted while a tool was running',
    });
    expect(log.filter((message) => message.role === 'user')).toEqual([]);
    expect(JSON.stringify(log)).not.toContain('ede_diagnostic');
  });

  it("stores no sub-agent prompt as a user message and keeps Claude Code's task lines out of the log", () => {
    const { outcome, log } = run('claude-code', 'taskcreate-agent');
    expect(outcome.reportedError).toBeUndefined();
    expect(log.filter((message) => message.role === 'user')).toEqual([]);
    expect(log.filter((message) => message.role === 'tool').map((message) => message.toolName)).toEqual([
      'TaskCreate',
      'Bash',
      'Agent',
    ]);
  });

  it("makes Gemini CLI's API error the run's error with the extracted message, and reports no 0 ms duration", () => {
    const { outcome, log } = run('gemini-cli', 'apierr');
    const error = { code: 'LLM_UNAVAILABLE', message: 'The model is overloaded. Please try again later.' };
    expect(outcome.reportedError).toEqual(error);
    expect(errorsOf(log)).toEqual([
      expect.objectContaining({ errorCode: error.code, content: error.message }),
    ]);
    expect(outcome.durationMs).toBeUndefined();
    const types = log.map((message) => message.partType ?? message.role);
    expect(types.at(-1)).toBe('error');
    expect(log.findIndex((message) => message.content === 'Step two.')).toBeGreaterThan(-1);
  });
});
