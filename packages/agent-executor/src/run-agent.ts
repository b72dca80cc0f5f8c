import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { type AgentOutput, CairnError, type ConversationMessage, definedFields } from '@cairn/core';
import { createDisplayProjector, createMessageProcessor, type MessageFields } from '@cairn/message-processor';
import { LineSplitter } from '@cairn/provider-utils';
import type { AgentRunOptions } from './agent-executor-options.js';
import type { AgentRunError, AgentRunResult } from './agent-run-result.js';
import { agentTranscriptRef } from './agent-transcript-ref.js';
import { findResumeSession } from './find-resume-session.js';
import { LogWriter } from './log-writer.js';
import { PostAbortFilter } from './post-abort-filter.js';
import { missingResultFailure, processFailure } from './process-failure.js';
import { assertResumeSessionId } from './resume-session-id.js';
import { RunOutcome } from './run-outcome.js';
import type { RunSettings } from './run-settings.js';
import { spawnAgentProcess } from './spawn-agent-process.js';
import { StderrTail } from './stderr-tail.js';
import { traceEnv } from './trace-agent-run.js';
import { TranscriptBuffer } from './transcript-buffer.js';

async function resumeSessionOf(
  settings: RunSettings,
  resume: AgentRunOptions['resume'],
  conversationId: string,
): Promise<string | undefined> {
  if (resume === undefined || resume === false) return undefined;
  // A string was checked with the other run options, before the run was queued.
  if (typeof resume === 'string') return resume;
  const sessionId = await findResumeSession(settings.store, conversationId, settings.cli.provider, {
    cwd: settings.cwd,
  });
  if (sessionId !== undefined) {
    // The store is data, not trusted: a recorded id becomes a command-line argument too.
    assertResumeSessionId(
      `the ${settings.cli.name} session recorded in conversation ${conversationId}`,
      sessionId,
    );
    return sessionId;
  }
  throw new CairnError(
    'INVALID_ARGUMENT',
    `Conversation ${conversationId} has no ${settings.cli.name} session to resume`,
  );
}

function errorMessage(error: AgentRunError, fields: MessageFields): ConversationMessage {
  return {
    id: randomUUID(),
    role: 'assistant',
    createdAt: new Date().toISOString(),
    content: error.message,
    partType: 'error',
    errorCode: error.code,
    ...fields,
  };
}

// Gemini CLI does not say where its session runs; the executor knows, and paths in summaries are
// shown relative to it.
function withCwd(event: AgentOutput, cwd: string): AgentOutput {
  return event.type === 'session_start' && event.cwd === undefined ? { ...event, cwd } : event;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * One run, start to end: store the prompt, spawn the CLI, feed its stdout line by line through the
 * converter and the message processor into the store (and the listeners), then record how the
 * process ended and keep the raw transcript. Resolves for every failure of the agent; rejects for
 * a failure of the store or of a listener (the agent is stopped first).
 */
export async function runAgent(
  settings: RunSettings,
  request: AgentRunOptions,
  conversationId: string,
): Promise<AgentRunResult> {
  const { store, cli, killGraceMs } = settings;
  const resumeSessionId = await resumeSessionOf(settings, request.resume, conversationId);
  const runId = randomUUID();
  const fields: MessageFields = {
    mode: settings.mode,
    runId,
    ...definedFields({ agentId: settings.agentId }),
  };

  // A store or listener failure stops the agent: nothing it does after could be recorded.
  const stop = new AbortController();
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort();
  };
  const guarded = (step: () => void) => {
    if (failure !== undefined) return;
    try {
      step();
    } catch (error) {
      fail(error);
    }
  };

  // The display view is projected from the stored messages (seq set, big outputs offloaded), so
  // what listeners see live is what `toDisplayMessages` gives for the reloaded conversation.
  const projector = createDisplayProjector(
    settings.toolProcessors === undefined ? {} : { toolProcessors: settings.toolProcessors },
  );
  const messages: ConversationMessage[] = [];
  const log = new LogWriter(
    store,
    conversationId,
    (stored) => {
      messages.push(stored);
      guarded(() => {
        request.onLogMessage?.(stored);
        for (const shown of projector.push(stored)) request.onDisplayMessage?.(shown);
      });
    },
    fail,
  );

  // The prompt is stored before the agent starts, so the log has it whatever happens next.
  log.write({
    id: randomUUID(),
    role: 'user',
    createdAt: new Date().toISOString(),
    content: request.prompt,
    ...fields,
  });
  await log.flush();

  const outcome = new RunOutcome();
  const processor = createMessageProcessor({
    onLogMessage: (message) => log.write(message),
    messageFields: fields,
    ...definedFields({ pendingTimeoutMs: settings.pendingTimeoutMs }),
    ...(request.onLiveDisplayMessage === undefined
      ? {}
      : {
          onLiveDisplayMessage: (shown: ConversationMessage) =>
            guarded(() => request.onLiveDisplayMessage?.(shown)),
        }),
  });
  const converter = cli.createConverter();
  const splitter = new LineSplitter();
  const transcript = new TranscriptBuffer(settings.maxTranscriptBytes);
  const stderr = new StderrTail();
  // Events some CLIs write only to stderr (Gemini CLI's retries).
  const stderrEvents = cli.createStderrConverter?.();
  const afterAbort = new PostAbortFilter();
  let echoPending = true;

  const handle = (events: AgentOutput[]) => {
    for (const converted of events) {
      const event = afterAbort.pass(withCwd(converted, settings.cwd));
      if (event === undefined) continue;
      request.onEvent?.(event);
      // Gemini CLI echoes the prompt as its first user message; it is stored already.
      if (echoPending && event.type === 'user_message' && event.text === request.prompt) {
        echoPending = false;
        continue;
      }
      outcome.observe(event);
      processor.push(event);
    }
  };

  // A chunk's lines are all converted before their events are processed: each stage's code stays
  // hot in the CPU's caches (~5% less CPU for the pipeline on the real Claude Code captures). Events
  // converted before a converter throws are still handled, as line by line.
  const handleLines = (lines: string[]) => {
    const events: AgentOutput[] = [];
    try {
      for (const line of lines) for (const event of converter.push(line)) events.push(event);
    } finally {
      handle(events);
    }
  };

  const exit = await spawnAgentProcess({
    command: settings.command,
    args: [
      ...settings.commandArgs,
      ...cli.buildArgs({
        prompt: request.prompt,
        extraArgs: [...settings.permissionArgs, ...settings.extraArgs],
        ...definedFields({ model: settings.model, resumeSessionId }),
      }),
    ],
    cwd: settings.cwd,
    // The run's own trace context over any inherited or configured one: the CLI continues this run.
    env: { ...process.env, ...settings.env, ...traceEnv(settings.telemetry) },
    signal: request.signal === undefined ? stop.signal : AbortSignal.any([request.signal, stop.signal]),
    stopSignal: settings.stopSignal,
    // From here on, what the CLI writes is not the answer (an abort after its exit changes nothing).
    onStopping: () => afterAbort.abort(),
    killGraceMs,
    onStdout: (chunk) => {
      transcript.push(chunk);
      guarded(() => {
        handleLines(splitter.push(chunk));
      });
    },
    onStderr: (chunk) => {
      stderr.push(chunk);
      if (stderrEvents !== undefined) guarded(() => handle(stderrEvents.push(chunk)));
    },
  });

  guarded(() => {
    for (const line of splitter.end()) {
      const events = converter.push(line);
      // Output that stops inside a line is a fragment the converter reports as an error event.
      const cut = events.find((event) => event.type === 'error');
      if (cut?.type === 'error') outcome.cutOff({ code: cut.code, message: cut.message });
      handle(events);
    }
    handle(converter.end());
  });

  const cwdMissing = exit.spawnError?.code === 'ENOENT' && !(await isDirectory(settings.cwd));
  const processError: AgentRunError | undefined =
    failure === undefined
      ? (processFailure({
          cliName: cli.name,
          command: settings.command,
          exit,
          stderr,
          killGraceMs,
          cwdMissing,
          cwd: settings.cwd,
          discardedAfterAbort: afterAbort.discarded,
        }) ?? (cli.writesResult === false ? undefined : missingResultFailure(cli.name, outcome)))
      : { code: 'AGENT_FAILED', message: `The run was stopped: ${messageOf(failure.error)}` };
  // Calls still waiting get interrupted results, before the error that explains why. This runs
  // even after a listener failed, so the log keeps every call answered (after a store failure,
  // nothing more is written).
  try {
    processor.end(exit.aborted ? 'the run was aborted' : undefined);
  } catch {
    // The processor already failed on an event; the rejection reports that.
  }

  // A failed result of the CLI is in the log already and explains its non-zero exit: the exit adds a
  // second error message only when stderr has something to say, and never to a precise error (an
  // API error with its LLM code), which stays the run's one error.
  const exitExplained =
    processError?.code === 'AGENT_FAILED' &&
    failure === undefined &&
    !exit.aborted &&
    exit.exitCode !== null &&
    exit.exitCode !== 0 &&
    ((outcome.resultFailed && stderr.lastLines(1).length === 0) || outcome.preciseError !== undefined);
  const persistedError = exitExplained ? undefined : processError;
  if (persistedError !== undefined) log.write(errorMessage(persistedError, fields));

  await log.flush().catch(() => undefined);
  guarded(() => {
    for (const shown of projector.end()) request.onDisplayMessage?.(shown);
  });

  // The raw stdout (its first `maxTranscriptBytes`): lines no converter understood and cut-off lines
  // stay inspectable.
  const transcriptRef = exit.started ? agentTranscriptRef(conversationId, runId) : undefined;
  if (transcriptRef !== undefined) {
    try {
      await store.putBlob(transcriptRef, transcript.contents());
    } catch (error) {
      fail(error);
    }
  }
  if (failure !== undefined) throw failure.error;

  const error = persistedError ?? outcome.reportedError ?? processError;
  return {
    conversationId,
    runId,
    success: error === undefined,
    exitCode: exit.exitCode,
    signal: exit.signal,
    stderr: stderr.text(),
    messages,
    text: outcome.result ?? '',
    ...definedFields({
      error,
      sessionId: outcome.sessionId,
      usage: outcome.usage,
      costUsd: outcome.costUsd,
      turns: outcome.turns,
      durationMs: outcome.durationMs,
      result: outcome.result,
      transcriptRef,
    }),
  };
}
