import { type AgentOutput, type AgentOutputOf, contentText, type JsonValue } from '@cairn/core';
import { jsonValueText } from '@cairn/provider-utils';
import { claudeCodeApiErrorEvent, isClaudeCodeApiError } from './claude-code-api-error.js';
import { ClaudeCodeBlockIds } from './claude-code-block-ids.js';
import { claudeCodeContentParts } from './claude-code-content-parts.js';
import {
  type ClaudeCodeEventContext,
  contextOf,
  type EventBase,
  eventOf,
  isJsonObject,
  type JsonObject,
  statusEvent,
  stringOf,
  withMessageId,
} from './claude-code-event-context.js';
import { ClaudeCodeStreamEvents } from './claude-code-stream-event.js';
import { claudeCodeToolResult } from './claude-code-tool-result.js';
import { convertClaudeCodeResultLine } from './convert-claude-code-result.js';
import { convertClaudeCodeSystemLine } from './convert-claude-code-system-line.js';
import {
  addUnmappedClaudeCodeFields,
  knownClaudeCodeFields,
  unknownClaudeCodeEvent,
} from './unknown-claude-code-event.js';

export interface ClaudeCodeConverterOptions {
  /** The clock for events whose line has no timestamp of its own. */
  now?: () => Date;
}

/** Converts Claude Code `--output-format stream-json` output, one line at a time. */
export interface ClaudeCodeConverter {
  /** The events of one line (without its line break). Never throws. */
  push(line: string): AgentOutput[];
  /** The events still owed when the output ends (none today), and a reset for reuse. */
  end(): AgentOutput[];
}

// The init line's fields the session_start event carries.
const INIT_FIELDS = knownClaudeCodeFields(['model', 'cwd', 'tools', 'claude_code_version', 'permissionMode']);

// The fields of assistant and user lines the conversion maps.
// A sub-agent's lines repeat its type and task, which its `task_progress` events carry.
const ASSISTANT_FIELDS = knownClaudeCodeFields(['message', 'subagent_type', 'task_description']);
const USER_FIELDS = knownClaudeCodeFields([
  'message',
  'tool_use_result',
  'subagent_type',
  'task_description',
]);

// What Claude Code writes as a user line when the user stops it ("… for tool use" while a tool ran).
const INTERRUPTED = /^\[Request interrupted by user[^\]\n]*\]$/;

// A user line with an image or a document (stream-json input, `--input-format stream-json`) and no tool result.
function hasMediaInput(content: JsonValue[]): boolean {
  let media = false;
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    if (block.type === 'tool_result') return false;
    if (block.type === 'image' || block.type === 'document') media = true;
  }
  return media;
}

// Such a line as one user message whose parts are its blocks, in order; none when no block is a part
// (the blocks are then converted one by one). Blocks that are no part are kept as `unknown`.
function userMediaEvents(content: JsonValue[], context: ClaudeCodeEventContext): AgentOutput[] {
  const { parts, hasMedia, unmapped } = claudeCodeContentParts(content);
  if (!hasMedia) return [];
  const event = eventOf('user_message', context) as AgentOutputOf<'user_message'>;
  event.text = contentText(parts, { placeholders: true });
  event.content = parts;
  const events: AgentOutput[] = [event];
  for (const block of unmapped) events.push(unknownClaudeCodeEvent(block, context));
  return events;
}

// The strings of a list, as a new list: copied whole when all are strings, as they are in every
// init line (no callback per item).
function stringsOf(items: JsonValue[]): string[] {
  for (let index = 0; index < items.length; index++) {
    if (typeof items[index] !== 'string') return items.filter((item) => typeof item === 'string');
  }
  return items.slice() as string[];
}

const OPEN_BRACE = 0x7b;

// Lines longer than this are cut in the error event's `raw`, so one huge bad line cannot bloat it.
const MAX_RAW_LENGTH = 10_000;

/**
 * A converter of Claude Code stream-json (with or without `--include-partial-messages`) into
 * `AgentOutput`. Unrecognised lines and blocks become `unknown` events, a line that is not JSON an
 * `error` event; the conversion goes on after both.
 */
export function createClaudeCodeConverter(options: ClaudeCodeConverterOptions = {}): ClaudeCodeConverter {
  return new ClaudeCodeLineConverter(options);
}

// A class rather than closures made per converter: its methods exist once, so their optimized code
// stays. A new converter's closures are compiled again once a garbage collection has freed the
// previous converter's, and a session pays that for its first thousands of lines.
class ClaudeCodeLineConverter implements ClaudeCodeConverter {
  private readonly now: () => Date;
  // Lines without a timestamp read the clock; the system clock is read without making a Date.
  private readonly clock: (() => Date) | undefined;
  private blockIds = new ClaudeCodeBlockIds();
  private streamEvents = new ClaudeCodeStreamEvents();
  // Tool names by call id, for the results (Claude's result blocks only name the id).
  private toolNames = new Map<string, string>();
  // The top-level run's error came on a synthetic API-error message: its result line repeats it.
  private errorReported = false;
  // Claude Code can repeat a task's notification (two identical `stopped` lines after SIGTERM).
  private taskNotifications = new Set<string>();

  constructor(options: ClaudeCodeConverterOptions) {
    this.now = options.now ?? (() => new Date());
    this.clock = options.now;
  }

  private assistantEvents(line: JsonObject, context: ClaudeCodeEventContext, text: string): AgentOutput[] {
    const message = line.message;
    if (!isJsonObject(message) || !Array.isArray(message.content))
      return [unknownClaudeCodeEvent(line, context)];
    const messageId = stringOf(message.id);
    const base = withMessageId(context, messageId);
    if (isClaudeCodeApiError(line, message)) {
      // Not model output: the run's error. Only a sub-agent's failure lets the run go on.
      const event = claudeCodeApiErrorEvent(line, message, base);
      if (event.fatal === true) this.errorReported = true;
      return [event];
    }
    const content = message.content;
    const events: AgentOutput[] = [];
    for (let index = 0; index < content.length; index++) {
      events.push(this.assistantBlockEvent(content[index] as JsonValue, messageId, base));
    }
    // Claude Code prints one block per line: a tool input is then the line's only `input`, and its
    // text can be kept rather than made again. (A string input is logged as is, without quotes.)
    const only = events[0];
    if (content.length === 1 && only?.type === 'tool_use' && typeof only.input !== 'string') {
      const inputText = jsonValueText(text, 'input', only.input);
      if (inputText !== undefined) only.inputText = inputText;
    }
    addUnmappedClaudeCodeFields(events, line, ASSISTANT_FIELDS, base);
    return events;
  }

  // Events are built field by field in the order `{ type, ...base, ... }` gives: spreading shows in profiles.
  private assistantBlockEvent(block: JsonValue, messageId: string | undefined, base: EventBase): AgentOutput {
    const id = this.blockIds.nextAssistantBlock(messageId);
    if (!isJsonObject(block)) return unknownClaudeCodeEvent(block, base);
    if (block.type === 'text' && typeof block.text === 'string') {
      const event = eventOf('text', base) as AgentOutputOf<'text'>;
      event.id = id;
      event.text = block.text;
      return event;
    }
    if (block.type === 'thinking' && typeof block.thinking === 'string') {
      const signature = stringOf(block.signature);
      const event = eventOf('reasoning', base);
      event.id = id;
      event.text = block.thinking;
      // Kept where the Anthropic adapter looks for it, so the thinking can be replayed.
      if (signature) event.providerMetadata = { anthropic: { signature } };
      return event;
    }
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      const event = eventOf('reasoning', base);
      event.id = id;
      event.text = '';
      event.redacted = true;
      event.providerMetadata = { anthropic: { data: block.data } };
      return event;
    }
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      this.toolNames.set(block.id, block.name);
      const event = eventOf('tool_use', base) as AgentOutputOf<'tool_use'>;
      event.id = block.id;
      event.toolName = block.name;
      event.input = block.input ?? {};
      return event;
    }
    return unknownClaudeCodeEvent(block, base);
  }

  private userEvents(line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
    const message = line.message;
    if (!isJsonObject(message)) return [unknownClaudeCodeEvent(line, context)];
    const content = message.content;
    if (typeof content === 'string') {
      const events: AgentOutput[] = [this.userTextEvent(content, line, context)];
      addUnmappedClaudeCodeFields(events, line, USER_FIELDS, context);
      return events;
    }
    if (!Array.isArray(content)) return [unknownClaudeCodeEvent(line, context)];
    const events: AgentOutput[] =
      context.parentToolUseId === undefined && hasMediaInput(content)
        ? userMediaEvents(content, context)
        : [];
    if (events.length === 0) {
      for (let index = 0; index < content.length; index++) {
        this.addUserBlockEvents(events, content[index] as JsonValue, line, context);
      }
    }
    addUnmappedClaudeCodeFields(events, line, USER_FIELDS, context);
    return events;
  }

  // A user line's text: the user's input, but also the prompt of a sub-agent and the CLI's own
  // status lines, which nobody typed.
  private userTextEvent(text: string, line: JsonObject, context: ClaudeCodeEventContext): AgentOutput {
    if (INTERRUPTED.test(text)) return statusEvent(context, 'interrupted', text);
    if (context.parentToolUseId !== undefined) {
      // Built field by field, in the order of `{ type, ...context, toolUseId, status, description?, prompt, providerMetadata? }`.
      const event = eventOf('task_progress', context);
      event.toolUseId = context.parentToolUseId;
      event.status = 'started';
      const description = stringOf(line.task_description);
      if (description !== undefined) event.description = description;
      event.prompt = text;
      const subagentType = stringOf(line.subagent_type);
      // A sub-agent's lines name its type; kept with its events.
      if (subagentType !== undefined) event.providerMetadata = { 'claude-code': { subagentType } };
      return event;
    }
    const event = eventOf('user_message', context) as AgentOutputOf<'user_message'>;
    event.text = text;
    return event;
  }

  private addUserBlockEvents(
    events: AgentOutput[],
    block: JsonValue,
    line: JsonObject,
    context: ClaudeCodeEventContext,
  ): void {
    if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') {
      events.push(this.userTextEvent(block.text, line, context));
      return;
    }
    if (isJsonObject(block) && block.type === 'tool_result') {
      const toolUseId = stringOf(block.tool_use_id);
      const toolName = toolUseId === undefined ? undefined : this.toolNames.get(toolUseId);
      // A call has one result: forgetting it keeps the map as small as the calls in flight.
      if (toolUseId !== undefined) this.toolNames.delete(toolUseId);
      const result = claudeCodeToolResult(block, line, toolName, context);
      if (result !== undefined) {
        for (const event of result) events.push(event);
        return;
      }
    }
    events.push(unknownClaudeCodeEvent(block, context));
  }

  private systemEvents(line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
    // Read once: system lines come in many shapes, so each read of it is a megamorphic load.
    const subtype = stringOf(line.subtype);
    if (subtype === 'task_notification') {
      const key = `${stringOf(line.task_id)}\u0000${stringOf(line.status)}`;
      if (this.taskNotifications.has(key)) return [];
      this.taskNotifications.add(key);
    }
    if (subtype !== 'init') return convertClaudeCodeSystemLine(line, subtype, context);
    // Built field by field, in the order of `{ type, ...context, provider, ...definedFields(…) }`.
    const event = eventOf('session_start', context) as AgentOutputOf<'session_start'>;
    event.provider = 'claude-code';
    const sessionId = stringOf(line.session_id);
    if (sessionId !== undefined) event.sessionId = sessionId;
    const model = stringOf(line.model);
    if (model !== undefined) event.model = model;
    if (Array.isArray(line.tools)) event.tools = stringsOf(line.tools);
    const cwd = stringOf(line.cwd);
    if (cwd !== undefined) event.cwd = cwd;
    const version = stringOf(line.claude_code_version);
    const permissionMode = stringOf(line.permissionMode);
    if (version !== undefined || permissionMode !== undefined) {
      // `definedFields({ version, permissionMode })`, without the object it copies.
      const claudeCode: { version?: string; permissionMode?: string } = {};
      if (version !== undefined) claudeCode.version = version;
      if (permissionMode !== undefined) claudeCode.permissionMode = permissionMode;
      event.providerMetadata = { 'claude-code': claudeCode };
    }
    const events: AgentOutput[] = [event];
    addUnmappedClaudeCodeFields(events, line, INIT_FIELDS, context);
    return events;
  }

  // `text` is the line as printed: a tool input's JSON text is taken from it, not made again.
  private convertLine(line: JsonObject, text: string): AgentOutput[] {
    // The context's fields are read in each case (see `contextOf`).
    const clock = this.clock;
    switch (line.type) {
      case 'system':
        return this.systemEvents(line, contextOf(line.timestamp, line.parent_tool_use_id, clock));
      case 'assistant':
        return this.assistantEvents(line, contextOf(line.timestamp, line.parent_tool_use_id, clock), text);
      case 'user':
        return this.userEvents(line, contextOf(line.timestamp, line.parent_tool_use_id, clock));
      case 'stream_event':
        return this.streamEvents.convert(line, contextOf(line.timestamp, line.parent_tool_use_id, clock));
      case 'result': {
        const context = contextOf(line.timestamp, line.parent_tool_use_id, clock);
        const events = convertClaudeCodeResultLine(line, context, { errorReported: this.errorReported });
        // The session is over: a next one (the same converter reused) reports its own error.
        this.errorReported = false;
        return events;
      }
      default:
        return [unknownClaudeCodeEvent(line, contextOf(line.timestamp, line.parent_tool_use_id, clock))];
    }
  }

  private badLine(line: string, message: string): AgentOutput {
    return {
      type: 'error',
      timestamp: this.now().toISOString(),
      code: 'LLM_BAD_RESPONSE',
      message,
      retryable: false,
      fatal: false,
      raw: line.length > MAX_RAW_LENGTH ? line.slice(0, MAX_RAW_LENGTH) : line,
    };
  }

  push(line: string): AgentOutput[] {
    // A JSON line starts with `{`: only another line can be blank.
    if (line.charCodeAt(0) !== OPEN_BRACE && line.trim() === '') return [];
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(line) as JsonValue;
    } catch {
      return [this.badLine(line, 'Claude Code printed a line that is not JSON')];
    }
    try {
      if (!isJsonObject(parsed))
        return [unknownClaudeCodeEvent(parsed, { timestamp: this.now().toISOString() })];
      return this.convertLine(parsed, line);
    } catch (error) {
      // A defect here must not end the agent's stream: report it and go on with the next line.
      return [this.badLine(line, `Could not convert a Claude Code line: ${String(error)}`)];
    }
  }

  end(): AgentOutput[] {
    this.blockIds = new ClaudeCodeBlockIds();
    this.streamEvents = new ClaudeCodeStreamEvents();
    this.toolNames = new Map();
    this.errorReported = false;
    this.taskNotifications = new Set();
    return [];
  }
}
