import {
  CairnError,
  type CairnErrorCode,
  definedFields,
  INTERRUPTED_TOOL_RESULT_TEXT,
  isToolAllowed,
  type MessageContent,
  MessageContentSchema,
  type ModelToolDefinition,
  type OpenAIToolCall,
  type Tool,
  type ToolCallResult,
  type ToolContext,
  type ToolExecutionOptions,
  type ToolHost,
  type ToolPolicy,
  validateStandardSchema,
} from '@cairn/core';
import { modelOutputText } from './model-output-text.js';
import { runWithDeadline, ToolCallStopped } from './run-with-deadline.js';
import { describeToolFailure } from './tool-failure.js';
import { toolInputErrorText } from './tool-input-error.js';
import { toolInputJsonSchema } from './tool-input-json-schema.js';

/** Default time limit of one tool call, when neither the tool nor the host sets one: 10 minutes. */
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;

export interface ToolHostOptions {
  /** Time limit of a call whose tool sets none (`Infinity` for none). Default 10 minutes. */
  defaultTimeoutMs?: number;
}

/** A `ToolHost` over a fixed set of tools, which can also list and look them up. */
export interface ToolRegistry extends ToolHost {
  readonly tools: readonly Tool[];
  get(name: string): Tool | undefined;
}

type Outcome = Omit<ToolCallResult, 'toolCallId' | 'toolName' | 'durationMs'>;

/** What the approver decided, once asked: run with this input (edited by the person, perhaps), or not. */
type Approval = { run: true; input: unknown; edited?: true } | { run: false; reason?: string } | 'pending';

// The call waits for a decision made elsewhere: no result yet.
const PENDING: Outcome = { content: '', isError: false, pending: true };

/** How long the tool itself ran: a call refused or never approved did not run at all. */
interface RunTime {
  ranMs: number;
}

const failed = (errorCode: CairnErrorCode, content: string, structured?: unknown): Outcome => ({
  content,
  isError: true,
  errorCode,
  ...definedFields({ structured }),
});

// A turn cancelled while the tool ran: there is no real result, and the model should be told so.
const INTERRUPTED: Outcome = {
  content: `${INTERRUPTED_TOOL_RESULT_TEXT} (the turn was cancelled)`,
  isError: true,
  interrupted: true,
};

/**
 * The tool host: lists the tools a policy allows, and runs a call — unknown tool, refused by the
 * policy or the approver, invalid arguments, a throw, a timeout: each becomes a failed result the
 * model can read and act on (`TOOL_*` code), never an exception.
 */
export function createToolHost(tools: readonly Tool[], options: ToolHostOptions = {}): ToolRegistry {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (!(defaultTimeoutMs > 0)) {
    throw new CairnError('INVALID_ARGUMENT', `defaultTimeoutMs must be positive, got ${defaultTimeoutMs}`);
  }
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new CairnError('INVALID_ARGUMENT', `Two tools are named ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const visible = (policy: ToolPolicy | undefined) => tools.filter((tool) => isToolAllowed(policy, tool));

  // The approver's answer in one shape: run (with this input) or not (and why), or wait.
  async function approval(
    tool: Tool,
    input: unknown,
    context: ToolContext,
    options: ToolExecutionOptions,
  ): Promise<Approval> {
    const { needsApproval } = tool;
    const asks =
      typeof needsApproval === 'function' ? await needsApproval(input, context) : needsApproval === true;
    if (!asks) return { run: true, input };
    if (options.approve === undefined) return { run: false };
    const answer = await options.approve({
      toolCallId: context.toolCallId,
      toolName: tool.name,
      input,
      signal: context.signal,
    });
    if (answer === 'pending') return 'pending';
    if (typeof answer !== 'object' || answer === null)
      return answer === true ? { run: true, input } : { run: false };
    if (answer.approved !== true) return { run: false, ...definedFields({ reason: answer.reason }) };
    return 'input' in answer ? { run: true, input: answer.input, edited: true } : { run: true, input };
  }

  async function outcome(
    call: OpenAIToolCall,
    options: ToolExecutionOptions,
    time: RunTime,
  ): Promise<Outcome> {
    // A cancelled turn's calls are all interrupted, whatever else would be wrong with them.
    if (options.signal?.aborted) return INTERRUPTED;
    const name = call.function.name;
    const tool = byName.get(name);
    if (tool === undefined || !isToolAllowed(options.policy, tool)) {
      const names = visible(options.policy).map((known) => known.name);
      const available =
        names.length === 0 ? 'No tools are available.' : `Available tools: ${names.join(', ')}.`;
      return tool === undefined
        ? failed('TOOL_NOT_FOUND', `There is no tool named ${JSON.stringify(name)}. ${available}`)
        : failed('TOOL_DENIED', `The tool ${name} is not allowed here. ${available}`);
    }
    let args: unknown;
    try {
      // An empty argument string is how some providers send "no arguments".
      args = JSON.parse(call.function.arguments.trim() === '' ? '{}' : call.function.arguments);
    } catch (error) {
      return failed(
        'TOOL_INVALID_INPUT',
        `The arguments for ${name} are not valid JSON (${(error as Error).message}). Send one JSON object that matches its schema.`,
      );
    }
    const parsed = await validated(tool, args);
    if ('isError' in parsed) return parsed;
    const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
    let decided: Approval;
    try {
      // Waiting for the user is not the tool's time; a cancelled turn still ends the wait.
      decided = await runWithDeadline(
        (signal) =>
          approval(tool, parsed.value, { ...contextOf(options), toolCallId: call.id, signal }, options),
        undefined,
        options.signal,
      );
    } catch (error) {
      if (error instanceof ToolCallStopped) return INTERRUPTED;
      // The tool never ran: without an answer from the approver it is not allowed to.
      const reason = error instanceof Error ? error.message : String(error);
      return failed('TOOL_DENIED', `${name} was not run: asking for approval failed (${reason}).`);
    }
    if (decided === 'pending') return PENDING;
    if (!decided.run) {
      const because = decided.reason === undefined ? '' : ` Their reason: ${decided.reason}`;
      return failed(
        'TOOL_DENIED',
        options.approve === undefined
          ? `${name} needs the user's approval, and there is no one to ask here.`
          : `The user did not approve running ${name}.${because}`,
      );
    }
    let input = parsed.value;
    if (decided.edited) {
      // The person's edit is input like the model's: the tool's schema checks it too.
      const edited = await validated(tool, decided.input);
      if ('isError' in edited) return edited;
      input = edited.value;
    }
    const refusal = await options.beforeRun?.({
      toolCallId: call.id,
      toolName: name,
      input,
      idempotent: tool.idempotent === true,
    });
    if (refusal !== undefined) return { ...refusal };
    const startedAt = performance.now();
    try {
      const output = await runWithDeadline(
        (signal) => tool.execute(input, { ...contextOf(options), toolCallId: call.id, signal }),
        timeoutMs,
        options.signal,
      ).finally(() => {
        time.ranMs = performance.now() - startedAt;
      });
      if (typeof output === 'string') return { content: output, isError: false };
      return {
        content: modelContentOf(tool, output),
        isError: false,
        ...definedFields({ structured: output }),
      };
    } catch (error) {
      if (error instanceof ToolCallStopped) {
        return error.reason === 'aborted'
          ? INTERRUPTED
          : failed('TOOL_TIMEOUT', `${name} did not finish within ${timeoutMs} ms and was stopped.`);
      }
      const failure = describeToolFailure(error);
      return failed(failure.code, failure.message, failure.structured);
    }
  }

  return {
    tools,
    get: (name) => byName.get(name),
    getVisibleTools(options = {}): ModelToolDefinition[] {
      return visible(options.policy).map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: toolInputJsonSchema(tool),
      }));
    },
    async execute(call, options) {
      const time: RunTime = { ranMs: 0 };
      const result = await outcome(call, options, time);
      return {
        toolCallId: call.id,
        toolName: call.function.name,
        // The tool's own time: a person taking a minute to approve it did not make the tool slow.
        durationMs: Math.round(time.ranMs),
        ...result,
      };
    },
  };
}

// The input as the tool's schema gives it back, or the failure the model (or the person) reads.
async function validated(tool: Tool, value: unknown): Promise<Outcome | { value: unknown }> {
  let parsed: Awaited<ReturnType<typeof validateStandardSchema>>;
  try {
    parsed = await validateStandardSchema(tool.input, value);
  } catch (error) {
    // A validator is user code too (a refinement, a morph): its bug is the tool's failure.
    const reason = error instanceof Error ? error.message : String(error);
    return failed('TOOL_FAILED', `Validating the arguments for ${tool.name} failed: ${reason}`);
  }
  return parsed.success
    ? { value: parsed.value }
    : failed('TOOL_INVALID_INPUT', toolInputErrorText(tool.name, parsed.issues));
}

// What the model reads of a result: text, or parts (an image it should see). The tool has run: a
// `toModelOutput` that throws or returns something no adapter can send must not turn its success
// into a failure (the model would retry it), so the JSON text is sent instead.
function modelContentOf(tool: Tool, output: unknown): MessageContent {
  if (tool.toModelOutput === undefined) return modelOutputText(output);
  let content: unknown;
  try {
    content = tool.toModelOutput(output);
  } catch {
    return modelOutputText(output);
  }
  if (Array.isArray(content) && content.length === 0) return '';
  return MessageContentSchema.safeParse(content).success
    ? (content as MessageContent)
    : modelOutputText(output);
}

// The call's context without the host's own options.
function contextOf(options: ToolExecutionOptions): Omit<ToolContext, 'toolCallId' | 'signal'> {
  const { projectRoot, conversationId, runId, agentId } = options;
  return {
    ...definedFields({ projectRoot, conversationId, runId, agentId }),
  };
}
