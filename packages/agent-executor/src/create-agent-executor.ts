import { randomUUID } from 'node:crypto';
import { assertSafeId, CairnError, KeyedSerialQueue } from '@cairn/core';
import type { AgentExecutorOptions, AgentRunOptions } from './agent-executor-options.js';
import type { AgentRunResult } from './agent-run-result.js';
import { assertResumeSessionId } from './resume-session-id.js';
import { runAgent } from './run-agent.js';
import { resolveRunSettings } from './run-settings.js';
import { traceAgentRun } from './trace-agent-run.js';

/** Runs an agent CLI and records its work in a conversation. */
export interface AgentExecutor {
  /**
   * One prompt, one process. Resolves when the process has ended and everything is stored, also
   * when the agent failed (`success: false`, the failure stored as an error message); rejects
   * only for bad arguments (`INVALID_ID`, `INVALID_ARGUMENT`) or a failing store or listener.
   */
  run(options: AgentRunOptions): Promise<AgentRunResult>;
}

function checkRunOptions(options: AgentRunOptions): void {
  if (typeof options?.prompt !== 'string' || options.prompt.trim() === '') {
    throw new CairnError('INVALID_ARGUMENT', 'prompt must be a non-empty string');
  }
  const { resume } = options;
  if (resume === undefined || typeof resume === 'boolean') return;
  if (typeof resume !== 'string') {
    throw new CairnError('INVALID_ARGUMENT', 'resume must be a boolean or a session id');
  }
  // It becomes a command-line argument: never an option of its own (`--dangerously-…`).
  assertResumeSessionId('resume', resume);
}

/**
 * An executor of Claude Code, Gemini CLI or another agent CLI. Runs on one conversation are
 * queued and never interleave (within this executor: two executors over one store do not
 * coordinate); runs on different conversations go in parallel.
 */
export function createAgentExecutor(options: AgentExecutorOptions): AgentExecutor {
  const settings = resolveRunSettings(options);
  const queue = new KeyedSerialQueue();
  return {
    async run(request) {
      checkRunOptions(request);
      const conversationId = request.conversationId ?? `agent-${randomUUID()}`;
      assertSafeId('conversationId', conversationId);
      return queue.run(conversationId, () => traceAgentRun(settings, request, conversationId, runAgent));
    },
  };
}
