import { type ApprovalDecision, CairnError, type JsonValue } from '@cairn/core';
import { cliFailure } from '../cli-error.js';
import { alreadyDecidedText } from '../render/approval-text.js';

/** `--input`: the edited input, as JSON; anything else is refused before a store is opened. */
export function parseEditedInput(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw cliFailure(
      'INVALID_ARGUMENT',
      `--input must be JSON, got ${JSON.stringify(text)}`,
      `e.g. --input '{"command":"npm test"}'; \`cairn approvals list <conversation>\` shows what was asked`,
    );
  }
}

/**
 * A failed decision as the CLI says it: the same code (scripts branch on it), what happened to this
 * request, and what to do next. Anything else is passed on as it is.
 */
export function approvalFailure(error: unknown, conversationId: string, approvalId: string): unknown {
  if (!CairnError.is(error)) return error;
  const listing = `\`cairn approvals list ${conversationId}\` shows its requests`;
  switch (error.code) {
    case 'APPROVAL_ALREADY_DECIDED': {
      const first = error.details?.decision as ApprovalDecision;
      return cliFailure(
        error.code,
        `approval ${approvalId} was ${alreadyDecidedText(first)}; nothing was decided or run again`,
        listing,
      );
    }
    case 'APPROVAL_NOT_FOUND':
      return cliFailure(
        error.code,
        `conversation ${conversationId} has no approval request ${approvalId}`,
        listing,
      );
    case 'APPROVAL_EXPIRED':
      return cliFailure(
        error.code,
        `approval ${approvalId} expired before it was decided: it is stored as expired, and its call is not run`,
        `\`cairn chat --resume ${conversationId}\` tells the model`,
      );
    case 'APPROVAL_FORBIDDEN':
      return cliFailure(
        error.code,
        `approval ${approvalId} is asked of ${String(error.details?.askedOf)}, not of this terminal`,
        'decide it where it was asked (the application that stored it)',
      );
    case 'TOOL_INVALID_INPUT': {
      const issues = (error.details?.issues as string[] | undefined)?.join('; ');
      return cliFailure(
        error.code,
        `--input does not fit the tool's input${issues === undefined ? '' : `: ${issues}`}`,
        `\`cairn approvals list ${conversationId} --json\` shows the input it asked to run`,
      );
    }
    default:
      return error;
  }
}
