import {
  CairnError,
  definedFields,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResult,
  type ModelStream,
} from '@cairn/core';
import { abortableSleep, createModelStream, createResultAssembler } from '@cairn/provider-utils';
import { type ResolvedScriptTurn, resolveScriptTurn } from '../resolve-script-turn.js';
import type { ScriptTurn } from '../script-turn.js';
import { playScriptTurn } from './play-script-turn.js';
import { scriptFaultError } from './script-fault-error.js';

export interface ScriptedModelOptions {
  /** The replies in request order, or a function choosing the reply for each request (0-based). */
  turns: ScriptTurn[] | ((request: ModelRequest, index: number) => ScriptTurn);
  /** Default `scripted`; set it to `openai` etc. to make errors name that provider. */
  provider?: string;
  /** Default `scripted-model`. */
  modelId?: string;
  capabilities?: Partial<ModelCapabilities>;
  /** The clock behind every event's `timestamp`. */
  now?: () => Date;
}

interface ScheduledTurn {
  index: number;
  script: ScriptTurn;
  turn: ResolvedScriptTurn;
}

/**
 * A `ModelAdapter` that plays a script instead of calling a model, for fast tests of everything
 * above the adapters. It goes through the same stream machinery and error classifier as the real
 * adapters, so events, results and `CairnError`s look exactly like theirs.
 */
export class ScriptedModel implements ModelAdapter {
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  /** Every request received, in order. */
  readonly requests: ModelRequest[] = [];
  private readonly options: ScriptedModelOptions;

  constructor(options: ScriptedModelOptions) {
    this.options = options;
    this.provider = options.provider ?? 'scripted';
    this.modelId = options.modelId ?? 'scripted-model';
    this.capabilities = {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      reasoning: true,
      ...options.capabilities,
    };
  }

  async generate(request: ModelRequest): Promise<ModelResult> {
    const scheduled = this.schedule(request);
    await this.answerStart(scheduled, request.signal);
    const assembler = createResultAssembler(this.options.now === undefined ? {} : { now: this.options.now });
    await playScriptTurn(assembler, scheduled.script, scheduled.turn, this.playOptions(scheduled, false));
    return assembler.complete();
  }

  stream(request: ModelRequest): ModelStream {
    // Scheduled now, not when the stream starts running, so `requests` keeps call order; a
    // scheduling failure is reported through the stream, which never throws.
    let scheduled: ScheduledTurn | undefined;
    let failure: unknown;
    try {
      scheduled = this.schedule(request);
    } catch (error) {
      failure = error;
    }
    return createModelStream(
      async (sink, signal) => {
        if (scheduled === undefined) throw failure;
        await this.answerStart(scheduled, signal);
        await playScriptTurn(sink, scheduled.script, scheduled.turn, {
          ...this.playOptions(scheduled, true),
          signal,
        });
      },
      {
        provider: this.provider,
        ...definedFields({ signal: request.signal, now: this.options.now }),
      },
    );
  }

  private schedule(request: ModelRequest): ScheduledTurn {
    const index = this.requests.length;
    this.requests.push(request);
    const { turns } = this.options;
    const script = typeof turns === 'function' ? turns(request, index) : turns[index];
    if (script === undefined) {
      const scripted = typeof turns === 'function' ? '' : ` (${turns.length} scripted)`;
      throw new CairnError('INVALID_ARGUMENT', `ScriptedModel: no turn for request #${index + 1}${scripted}`);
    }
    if (script.rawSse !== undefined) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        'ScriptedModel: rawSse turns need a mock provider server and an adapter',
      );
    }
    return { index, script, turn: resolveScriptTurn(script, (call) => `call_${index}_${call}`) };
  }

  // The wait and the HTTP fault come before any output, as with a real provider.
  private async answerStart({ script }: ScheduledTurn, signal: AbortSignal | undefined): Promise<void> {
    // Also rejects at once with LLM_ABORTED when the signal has already fired.
    await abortableSleep(script.delayMs ?? 0, signal);
    if (script.fault) throw scriptFaultError(script.fault, this.provider);
  }

  private playOptions({ index }: ScheduledTurn, streaming: boolean) {
    return { provider: this.provider, responseId: `scripted-${index}`, modelId: this.modelId, streaming };
  }
}
