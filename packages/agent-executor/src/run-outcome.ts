import type { AgentOutput, TokenUsage } from '@cairn/core';
import type { AgentRunError } from './agent-run-result.js';

/** What the events of one run said about it: its session, its final result, its failures. */
export class RunOutcome {
  sessionId?: string;
  usage?: TokenUsage;
  costUsd?: number;
  turns?: number;
  durationMs?: number;
  result?: string;
  /** The CLI wrote its final result line (a stream without one did not finish). */
  resultSeen = false;
  /** The CLI's final result said it failed, so a non-zero exit is already explained in the log. */
  resultFailed = false;
  private resultSubtype: string | undefined;
  private fatalError?: AgentRunError;
  private lastError?: AgentRunError;
  private cutOffError?: AgentRunError;

  observe(event: AgentOutput): void {
    switch (event.type) {
      case 'session_start':
        if (event.sessionId !== undefined) this.sessionId = event.sessionId;
        return;
      case 'usage':
        // A later `usage` replaces an earlier one; the final result's total comes last.
        this.usage = event.usage;
        return;
      case 'error': {
        const error = { code: event.code, message: event.message };
        // Skipped junk lines are not what failed a run; a CLI error is.
        if (event.code !== 'LLM_BAD_RESPONSE') this.lastError = error;
        if (event.fatal === true) this.fatalError ??= error;
        return;
      }
      case 'session_result':
        this.resultSeen = true;
        if (event.sessionId !== undefined) this.sessionId = event.sessionId;
        if (event.usage !== undefined) this.usage = event.usage;
        if (event.costUsd !== undefined) this.costUsd = event.costUsd;
        if (event.turns !== undefined) this.turns = event.turns;
        if (event.durationMs !== undefined) this.durationMs = event.durationMs;
        if (event.result !== undefined) this.result = event.result;
        if (event.isError) {
          this.resultFailed = true;
          this.resultSubtype = event.subtype;
        }
        return;
      default:
        return;
    }
  }

  /** The output ended inside a line the converter could not read (it reported an `error`). */
  cutOff(error: AgentRunError): void {
    this.cutOffError ??= error;
  }

  /**
   * The failure the output itself reported (already in the log): a fatal error, a failed result
   * (with the CLI's error message, which converters emit beside it), or output cut mid-line.
   */
  get reportedError(): AgentRunError | undefined {
    if (this.fatalError !== undefined) return this.fatalError;
    if (this.resultFailed) {
      return (
        this.lastError ?? {
          code: 'AGENT_FAILED',
          message: `the agent reported a failed result (${this.resultSubtype ?? 'error'})`,
        }
      );
    }
    return this.cutOffError;
  }

  /**
   * The reported failure when it names its cause more precisely than "the agent failed" (an API
   * error's `LLM_*` code, an interruption): a non-zero exit then adds nothing to it, whatever the CLI
   * wrote to stderr (Gemini CLI's retry stack traces; the run result keeps stderr).
   */
  get preciseError(): AgentRunError | undefined {
    const error = this.reportedError;
    return error !== undefined && error.code !== 'AGENT_FAILED' ? error : undefined;
  }
}
