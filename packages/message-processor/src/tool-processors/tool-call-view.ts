import type { JsonValue, ToolDetails } from '@cairn/core';

/** One tool call with its result (or the lack of one), as a tool processor sees it. */
export interface ToolCallView {
  toolName: string;
  toolUseId: string;
  /** The parsed call arguments (the raw string when they were not JSON). */
  input: JsonValue;
  /** The tool message's content; '' when unfinished. */
  output: string;
  isError: boolean;
  /**
   * `completed` (it has its result), `unfinished` (none came), or where the tool ledger says a call
   * without a result stands: `awaiting_approval`, `running`. Processors only see completed calls.
   */
  status: 'completed' | 'unfinished' | 'awaiting_approval' | 'running';
  /** The tool message's structuredResult (Claude Code's tool_use_result, Gemini CLI's result extras). */
  structured?: JsonValue;
  /** Paths inside it are shown relative to it. */
  cwd?: string;
}

/** Knows how to describe the calls of some tools in one line, with structured details. */
export interface ToolProcessor {
  readonly toolNames: readonly string[];
  /** The summary of a successful call: "Created hello.txt". */
  summarize(call: ToolCallView): string;
  /** The summary of a failed call; without it the registry says "<toolName> failed: <reason>". */
  describeFailure?(call: ToolCallView): string;
  details?(call: ToolCallView): ToolDetails | undefined;
}

export interface ToolDescription {
  summary: string;
  details?: ToolDetails;
}
