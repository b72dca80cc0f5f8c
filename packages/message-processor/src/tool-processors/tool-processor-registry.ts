import { failureSummary } from './failure-summary.js';
import { mcpCallLabel } from './mcp-call-label.js';
import { singleLine, truncate } from './summary-text.js';
import type { ToolCallView, ToolDescription, ToolProcessor } from './tool-call-view.js';

const MAX_SUMMARY_LENGTH = 200;
const MAX_TOOL_NAME_LENGTH = 60;

/** A summary as the UI shows it: one line, of bounded length. */
function toSummary(text: string): string {
  return truncate(singleLine(text), MAX_SUMMARY_LENGTH);
}

function toolNameOf(call: ToolCallView): string {
  return truncate(singleLine(call.toolName), MAX_TOOL_NAME_LENGTH) || 'Tool';
}

const PENDING_SUMMARIES: Record<Exclude<ToolCallView['status'], 'completed'>, string> = {
  unfinished: 'did not finish',
  awaiting_approval: 'waits for approval',
  running: 'is running',
};

/**
 * "<toolName> completed" / "<toolName> failed: <reason>" / "<toolName> did not finish" (or "waits
 * for approval", "is running"); an MCP tool's call is "server · tool(args)" (and "… failed:
 * <reason>", "… did not finish", …).
 */
function genericSummary(call: ToolCallView): string {
  const mcp = mcpCallLabel(call.toolName, call.input);
  if (mcp !== undefined && call.status === 'completed' && !call.isError) return mcp;
  const name = mcp ?? toolNameOf(call);
  if (call.status !== 'completed') return `${name} ${PENDING_SUMMARIES[call.status]}`;
  return call.isError ? failureSummary(name, call) : `${name} completed`;
}

function describeWith(processor: ToolProcessor, call: ToolCallView): ToolDescription | undefined {
  const text = call.isError
    ? (processor.describeFailure?.(call) ?? failureSummary(toolNameOf(call), call))
    : processor.summarize(call);
  // Custom processors are plain JavaScript as far as we know: check what they return.
  const summary = typeof text === 'string' ? toSummary(text) : '';
  if (summary === '') return undefined;
  const details = processor.details?.(call);
  return details === undefined ? { summary } : { summary, details };
}

/** Tool processors by tool name; describes any call, falling back to a generic summary. */
export class ToolProcessorRegistry {
  private readonly processors = new Map<string, ToolProcessor>();

  /** Later processors override earlier ones for the tool names they share. */
  constructor(processors: Iterable<ToolProcessor> = []) {
    for (const processor of processors) this.register(processor);
  }

  register(processor: ToolProcessor): this {
    for (const toolName of processor.toolNames) this.processors.set(toolName, processor);
    return this;
  }

  get(toolName: string): ToolProcessor | undefined {
    return this.processors.get(toolName);
  }

  /** The call's one-line summary and details; never throws. */
  describe(call: ToolCallView): ToolDescription {
    const processor = call.status === 'completed' ? this.get(call.toolName) : undefined;
    if (processor !== undefined) {
      try {
        const description = describeWith(processor, call);
        if (description !== undefined) return description;
      } catch {
        // A processor that breaks on odd data must not break the display: say it generically.
      }
    }
    return { summary: toSummary(genericSummary(call)) };
  }
}
