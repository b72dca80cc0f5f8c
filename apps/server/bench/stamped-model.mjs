// The bench's scripted model: a ModelAdapter that streams `chunks` text chunks per model call, each
// carrying the wall-clock time (ms, sub-millisecond) at which it was handed to Cairn, so a client
// can tell how long the server took to deliver it. ScriptedModel (@cairn/testing) fixes a reply's
// text when the call is scheduled, not when each chunk goes out, hence this small adapter built on
// the same stream machinery the real adapters and ScriptedModel use (createModelStream).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

// @cairn/provider-utils is not a dependency of @cairn/server; @cairn/testing (a dev dependency)
// depends on it, so it is resolved from there.
// (createRequire rather than import.meta.resolve, which vitest's module runner lacks.)
const fromTesting = createRequire(createRequire(import.meta.url).resolve('@cairn/testing'));
const providerUtilsDir = dirname(fromTesting.resolve('@cairn/provider-utils/package.json'));
const { createModelStream, createResultAssembler } = await import(
  pathToFileURL(join(providerUtilsDir, 'dist/index.js')).href
);

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes on one machine. */
export const wallClock = () => performance.timeOrigin + performance.now();

/**
 * `[emit:1732312312312.123]`: when the chunk was handed to Cairn, read back by clients with this.
 * Each chunk also carries `[due:…]`, when its timer was set to fire: a timer that fires late means
 * the server's event loop was busy, as a real provider's chunk would sit unread in its socket.
 */
export const STAMP_PATTERN = /\[emit:(\d+\.\d+)\]/g;
export const DUE_PATTERN = /\[due:(\d+\.\d+)\]/;
/** The first chunk also carries `[call:…]`, when Cairn called the model (wall clock, ms). */
export const CALL_PATTERN = /\[call:(\d+\.\d+)\]/;
/**
 * The last chunk also carries `[paced:…]`: the sum of the waits the model meant to take this call
 * (ms), its own pacing; what the turn took beyond it is the server's.
 */
export const PACED_PATTERN = /\[paced:(\d+)\]/;

/**
 * What the stamps in a turn's text (the SSE body, or a stored answer) tell: when the model was
 * called, when it emitted its last chunk (both on the model's clock) and its own pacing (ms).
 * Undefined fields when the text lacks the stamps.
 */
export function readTurnStamps(text) {
  let lastEmit;
  for (const [, emitted] of text.matchAll(STAMP_PATTERN)) lastEmit = Math.max(lastEmit ?? 0, Number(emitted));
  const call = CALL_PATTERN.exec(text)?.[1];
  const paced = PACED_PATTERN.exec(text)?.[1];
  return {
    call: call === undefined ? undefined : Number(call),
    lastEmit,
    pacedMs: paced === undefined ? undefined : Number(paced),
  };
}

const FILLER = ' lorem ipsum dolor';

/**
 * @param {object} options
 * @param {number} options.chunks text chunks per model call
 * @param {number} options.firstChunkMs mean wait before the first chunk (time to first token)
 * @param {number} options.chunkMs mean wait between chunks
 * @param {() => number} options.random in [0, 1): every wait is its mean × (0.5 … 1.5), so the
 *   conversations' chunks do not all fire on the same timer tick
 */
export function createStampedModel({ chunks, firstChunkMs, chunkMs, random }) {
  let calls = 0;
  const jitter = (mean) => mean * (0.5 + random());
  const play = async (sink, signal) => {
    const calledAt = wallClock();
    const call = calls++;
    sink.start({ responseId: `bench-${call}`, modelId: 'stamped' });
    let pacedMs = 0;
    for (let index = 0; index < chunks; index++) {
      const waitMs = Math.max(1, Math.round(jitter(index === 0 ? firstChunkMs : chunkMs)));
      pacedMs += waitMs;
      const due = wallClock() + waitMs;
      await sleep(waitMs, undefined, signal ? { signal } : {});
      const last = index === chunks - 1;
      const stamps =
        (index === 0 ? `[call:${calledAt.toFixed(3)}]` : '') +
        `[due:${due.toFixed(3)}][emit:${wallClock().toFixed(3)}]` +
        (last ? `[paced:${pacedMs}]` : '');
      sink.textDelta('text', `${stamps}${FILLER}${last ? '.' : ''}`);
    }
    sink.textEnd('text');
    sink.usage({ inputTokens: 20, outputTokens: chunks * 4 });
    sink.finish('stop', 'stop');
  };
  return {
    provider: 'bench',
    modelId: 'stamped',
    capabilities: { streaming: true, toolCalls: false, parallelToolCalls: false, reasoning: false },
    async generate(request) {
      const assembler = createResultAssembler();
      await play(assembler, request.signal);
      return assembler.complete();
    },
    stream(request) {
      return createModelStream((sink, signal) => play(sink, signal), {
        provider: 'bench',
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    },
  };
}
