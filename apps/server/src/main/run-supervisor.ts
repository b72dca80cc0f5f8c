import type { AgentRuntime } from '@cairn/runtime';
import { errorFields } from '../app/http/error-fields.js';
import type { ServerLogger } from '../app/server-env.js';
import { publishStored } from '../app/turns/run-turns.js';
import type { ConversationEventBus } from '../events/conversation-events.js';

export interface RunSupervisor {
  /** Stops sweeping; a turn it runs may finish within `graceMs`, then it is aborted (and stores so). */
  stop(graceMs: number): Promise<void>;
}

/**
 * Takes over the runs a dead process (another worker, another instance, this server before a
 * crash) left in the middle of a turn: sweeps now, then every `intervalMs`, with `runs.recover`.
 * Every worker sweeps; a run's lease gives it to one of them. What the taken-over turn stores is
 * published, so `/events` followers see it as they see any turn.
 */
export function startRunSupervisor(deps: {
  runtime: AgentRuntime;
  events: ConversationEventBus;
  logger: ServerLogger;
  intervalMs: number;
}): RunSupervisor {
  const { runtime, logger } = deps;
  const stopping = new AbortController();
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    if (sweeping !== undefined || stopping.signal.aborted) return;
    sweeping = runtime.runs
      .recover({
        signal: stopping.signal,
        onEvent: (event) => {
          if (event.type === 'runtime' && event.event === 'message_persisted')
            publishStored(deps, event.conversationId, event.message);
        },
      })
      .then((taken) => {
        for (const run of taken) logger.info({ runId: run.runId, success: run.success }, 'run taken over');
      })
      .catch((error: unknown) => logger.warn(errorFields(error), 'run sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  };
  const timer = setInterval(sweep, deps.intervalMs);
  timer.unref();
  sweep();
  return {
    async stop(graceMs) {
      clearInterval(timer);
      const running = sweeping;
      if (running === undefined) return stopping.abort(new Error('server stopping'));
      const grace = AbortSignal.timeout(graceMs);
      await Promise.race([running, new Promise((resolve) => grace.addEventListener('abort', resolve))]);
      stopping.abort(new Error('server stopping'));
      await running;
    },
  };
}
