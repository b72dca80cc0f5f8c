import type { ToolDetails } from '@cairn/core';
import { type CallSubject, failureSummary } from './failure-summary.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';

export interface ToolProcessorDefinition {
  toolNames: readonly string[];
  /** What a failure is called: "Read" gives "Read failed: <reason>". */
  label: string | ((call: ToolCallView) => string);
  /** What the call worked on, when known, named in a failure: "Read src/x.ts — failed: <reason>". */
  subject?(call: ToolCallView): CallSubject | undefined;
  summarize(call: ToolCallView): string;
  details?(call: ToolCallView): ToolDetails | undefined;
}

/** A built-in processor: its failures read "<label> failed: <reason>" or "<label> <subject> — failed: <reason>". */
export function defineToolProcessor(definition: ToolProcessorDefinition): ToolProcessor {
  const { toolNames, label, subject, summarize, details } = definition;
  const processor: ToolProcessor = {
    toolNames,
    summarize,
    describeFailure: (call) =>
      failureSummary(typeof label === 'string' ? label : label(call), call, subject?.(call)),
  };
  if (details !== undefined) processor.details = details;
  return processor;
}
