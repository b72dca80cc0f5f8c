import {
  type ConversationMessage,
  type ConversationMode,
  type ModelMessage,
  resolveMaxToolResultChars,
  type Tokenizer,
} from '@cairn/core';
import type { AgentPersona } from './agent-persona.js';
import { assertValidLog } from './assert-valid-log.js';
import type { ToolDescription, ToolPolicyInput } from './available-tools.js';
import { composeSystemPrompt } from './compose-system-prompt.js';
import { estimateTokens, TOKEN_ESTIMATE_NAME } from './estimate-tokens.js';
import type { ModeProfiles } from './mode-profiles.js';
import { repairToolPairs } from './repair-tool-pairs.js';
import type { RunContext } from './run-context.js';
import { selectLogMessages } from './select-log-messages.js';

export interface ContextBuilderSettings {
  /** Put the composed system prompt first. Default `true`. */
  includeSystemPrompt?: boolean;
  /** Replaces the default text of any mode (see `DEFAULT_MODE_PROFILES`). */
  modeProfiles?: Partial<ModeProfiles>;
  /** Counts `stats.tokens`; without one, characters / 4. */
  tokenizer?: Tokenizer;
  /**
   * The most characters of one tool result sent (`toolOutputForModel`); give the loop the same
   * value, so a turn sends its results as the later turns do. Default
   * `DEFAULT_MAX_TOOL_RESULT_CHARS`; `Infinity` for none.
   */
  maxToolResultChars?: number;
}

export interface BuildLlmMessagesParams {
  /** The conversation log, in `seq` order. */
  messages: readonly ConversationMessage[];
  mode: ConversationMode;
  agent?: AgentPersona;
  /** The tools that exist; the system prompt lists those the policy allows (nothing when absent). */
  tools?: readonly ToolDescription[];
  toolPolicy?: ToolPolicyInput;
  /** Run mode only: the workflow step, or the completed workflow. */
  runContext?: RunContext;
  settings?: ContextBuilderSettings;
}

/** How the log became the request. `included + excluded + compacted + dropped` is the log's length. */
export interface ContextStats {
  /** Log messages sent; the applied compaction record counts (it is sent as the summary). */
  included: number;
  /** Interrupted results added for calls without a result. */
  repaired: number;
  /** Tool results dropped: no call waiting for them, or a second result for a call. */
  dropped: number;
  /** Hidden (`includeInContext: false`), display-only, off the active branch, and older compaction records outside the range. */
  excluded: number;
  /** Visible messages replaced by the summary of the latest compaction record. */
  compacted: number;
  /** Tokens of `messages`, system prompt included. */
  tokens: number;
  /** The tokenizer's `name`, or `chars/4` for the built-in estimate. */
  tokensEstimatedBy: string;
}

export interface BuildLlmMessagesResult {
  /** The request: the system prompt (unless turned off), then the conversation. Protocol-valid. */
  messages: ModelMessage[];
  stats: ContextStats;
  /**
   * For each of `messages`, the `seq` of the log message it came from; undefined for the system
   * prompt, an added interrupted result and the compaction summary. Turns an index range of the
   * request into a seq range of the log (what compression records).
   */
  sourceSeqs: (number | undefined)[];
}

/**
 * Builds a model request from a stored conversation (seeds 7-5, 7-7): the composed system prompt,
 * then the log messages the model may see — hidden and display-only ones left out, the latest
 * compaction record's summary in place of its range, errors as notes of the failure, offloaded
 * outputs as preview and reference, other tool outputs within `maxToolResultChars` — with tool calls
 * and results repaired into a valid protocol. Linear in the log. Throws `INVALID_MESSAGE` for an
 * invalid log message, `INVALID_ARGUMENT` for a log out of seq order, an unknown mode, a bad run
 * context or a bad `maxToolResultChars`.
 */
export function buildLlmMessagesFromConversation(params: BuildLlmMessagesParams): BuildLlmMessagesResult {
  const { settings = {} } = params;
  // Composed even when not sent: it validates the mode and the run context either way.
  const systemPrompt = composeSystemPrompt({
    mode: params.mode,
    agent: params.agent,
    tools: params.tools,
    toolPolicy: params.toolPolicy,
    runContext: params.runContext,
    modeProfiles: settings.modeProfiles,
  });
  const maxToolResultChars = resolveMaxToolResultChars(settings.maxToolResultChars);
  assertValidLog(params.messages);

  const selection = selectLogMessages(params.messages, maxToolResultChars);
  const repair = repairToolPairs(selection.messages);
  const messages: ModelMessage[] = [];
  const sourceSeqs: (number | undefined)[] = [];
  if (settings.includeSystemPrompt !== false) {
    messages.push({ role: 'system', content: systemPrompt });
    sourceSeqs.push(undefined);
  }
  repair.messages.forEach((message, index) => {
    messages.push(message);
    const source = repair.sourceIndexes[index];
    sourceSeqs.push(source === undefined ? undefined : selection.seqs[source]);
  });

  const { tokenizer } = settings;
  return {
    messages,
    sourceSeqs,
    stats: {
      included: selection.messages.length - repair.dropped,
      repaired: repair.repaired,
      dropped: repair.dropped,
      excluded: selection.excluded,
      compacted: selection.compacted,
      tokens: tokenizer === undefined ? estimateTokens(messages) : tokenizer.count(messages),
      tokensEstimatedBy: tokenizer === undefined ? TOKEN_ESTIMATE_NAME : tokenizer.name,
    },
  };
}
