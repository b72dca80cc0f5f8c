import { CairnError } from '@cairn/core';

/** One streamed tool-call fragment, as OpenAI Chat Completions (and compatible servers) send it. */
export interface ToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** What a fragment means: a call can start (id and name known), or its arguments grew. */
export type ToolCallUpdate =
  | { type: 'start'; id: string; toolName: string }
  | { type: 'arguments'; id: string; delta: string };

export interface AccumulatedToolCall {
  id: string;
  toolName: string;
  arguments: string;
}

export interface ToolCallAccumulatorOptions {
  /** The id of a call the server sent none for (some compatible servers omit it); default `call_<index>`. */
  generateId?: (index: number) => string;
}

interface PendingCall {
  index: number;
  id: string | undefined;
  toolName: string;
  /** Argument text received before the call could start; flushed on start. */
  arguments: string;
  started: boolean;
}

/**
 * Joins indexed tool-call deltas into whole calls. A call starts once its name is known (its id
 * too, or a generated one); argument pieces that arrive earlier are held and released right
 * after the start, so a consumer always sees `start` before `arguments` for a call.
 */
export class ToolCallAccumulator {
  private readonly calls: PendingCall[] = [];
  private readonly generateId: (index: number) => string;

  constructor(options: ToolCallAccumulatorOptions = {}) {
    this.generateId = options.generateId ?? ((index) => `call_${index}`);
  }

  /** Adds one fragment; returns what it changed. */
  push(delta: ToolCallDelta): ToolCallUpdate[] {
    const call = this.callFor(delta);
    if (call.id === undefined && delta.id) call.id = delta.id;
    const updates: ToolCallUpdate[] = [];
    const name = delta.function?.name;
    if (!call.started && name) {
      call.started = true;
      call.toolName = name;
      call.id ??= this.generateId(call.index);
      updates.push({ type: 'start', id: call.id, toolName: name });
      if (call.arguments !== '') updates.push({ type: 'arguments', id: call.id, delta: call.arguments });
    }
    const piece = delta.function?.arguments ?? '';
    call.arguments += piece;
    if (call.started && call.id !== undefined && piece !== '')
      updates.push({ type: 'arguments', id: call.id, delta: piece });
    return updates;
  }

  /** The calls so far, in index order. Throws `LLM_BAD_RESPONSE` if one never got a name. */
  toolCalls(): AccumulatedToolCall[] {
    return [...this.calls]
      .sort((a, b) => a.index - b.index)
      .map((call) => {
        if (!call.started || call.id === undefined) {
          throw new CairnError('LLM_BAD_RESPONSE', `tool call ${call.index} has no function name`);
        }
        return { id: call.id, toolName: call.toolName, arguments: call.arguments };
      });
  }

  private callFor(delta: ToolCallDelta): PendingCall {
    // Servers that leave out `index` name the call by id, or continue the latest one.
    const existing =
      delta.index !== undefined
        ? this.calls.findLast((call) => call.index === delta.index)
        : delta.id
          ? this.calls.find((call) => call.id === delta.id)
          : this.calls.at(-1);
    // Some compatible servers send every parallel call at index 0: another id there is another call.
    const anotherCall = Boolean(delta.id) && existing?.id !== undefined && existing.id !== delta.id;
    if (existing !== undefined && !anotherCall) return existing;
    const call: PendingCall = {
      index: delta.index ?? this.calls.length,
      id: undefined,
      toolName: '',
      arguments: '',
      started: false,
    };
    this.calls.push(call);
    return call;
  }
}
