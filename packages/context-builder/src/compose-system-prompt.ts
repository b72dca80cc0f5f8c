import { CairnError, type ConversationMode, ConversationModeSchema } from '@cairn/core';
import { type AgentPersona, describePersona } from './agent-persona.js';
import { describeTools, type ToolDescription, type ToolPolicyInput } from './available-tools.js';
import { describeRunContext } from './describe-run-context.js';
import { DEFAULT_MODE_PROFILES, type ModeProfiles } from './mode-profiles.js';
import { isGiven } from './one-line.js';
import { parseRunContext, type RunContext } from './run-context.js';

/** What the system prompt is composed from. */
export interface SystemPromptParams {
  mode: ConversationMode;
  agent?: AgentPersona | undefined;
  /**
   * The tools that exist; the prompt lists those `toolPolicy` allows, or says none are available.
   * Absent: the prompt says nothing about tools (the caller did not say which exist).
   */
  tools?: readonly ToolDescription[] | undefined;
  toolPolicy?: ToolPolicyInput | undefined;
  /** Run mode only. */
  runContext?: RunContext | undefined;
  /** Replaces the default text of any mode (see `DEFAULT_MODE_PROFILES`); an empty text leaves it out. */
  modeProfiles?: Partial<ModeProfiles> | undefined;
}

/** Throws `INVALID_ARGUMENT` unless `mode` is a conversation mode. */
function assertMode(mode: unknown): asserts mode is ConversationMode {
  if (!ConversationModeSchema.safeParse(mode).success) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `Unknown mode ${JSON.stringify(mode)}: expected chat, agent or run`,
      {
        details: { mode },
      },
    );
  }
}

/**
 * The system prompt: the persona and the agent's own instructions, the mode profile, the allowed
 * tools, then (run mode) the run context. Blank-line separated, and a pure function of its input:
 * the same input gives the same text, so provider prompt caches hit. What changes most often (the
 * run's step) comes last, so the stable start stays a cacheable prefix.
 * Throws `INVALID_ARGUMENT` for an unknown mode, a bad run context, or a run context outside run mode.
 */
export function composeSystemPrompt(params: SystemPromptParams): string {
  assertMode(params.mode);
  const run = params.runContext === undefined ? undefined : parseRunContext(params.runContext);
  if (run !== undefined && params.mode !== 'run') {
    throw new CairnError('INVALID_ARGUMENT', `A run context is only used in run mode, not ${params.mode}`, {
      details: { mode: params.mode },
    });
  }
  const profileKey = run?.status === 'completed' ? 'postCompletion' : params.mode;
  const profile = params.modeProfiles?.[profileKey] ?? DEFAULT_MODE_PROFILES[profileKey];
  const sections = [
    describePersona(params.agent),
    profile.trim(),
    params.tools === undefined ? '' : describeTools(params.tools, params.toolPolicy),
    run === undefined ? '' : describeRunContext(run),
  ];
  return sections.filter(isGiven).join('\n\n');
}
