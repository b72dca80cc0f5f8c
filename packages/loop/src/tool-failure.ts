import { CairnError, type CairnErrorCode, definedFields } from '@cairn/core';

/** The codes a tool may fail with; any other error a tool throws is reported as `TOOL_FAILED`. */
export type ToolFailureCode = Extract<
  CairnErrorCode,
  'TOOL_FAILED' | 'TOOL_DENIED' | 'TOOL_INVALID_INPUT' | 'TOOL_TIMEOUT'
>;

/**
 * An error for a tool to throw when the call failed but has a result worth keeping (a command's
 * stdout, stderr and exit code): the model reads `message`, and `structured` becomes the call's
 * structured result, as a returned value would.
 */
export function toolFailure(
  message: string,
  structured?: unknown,
  code: ToolFailureCode = 'TOOL_FAILED',
): CairnError {
  return new CairnError(code, message, structured === undefined ? {} : { details: { structured } });
}

const TOOL_FAILURE_CODES: ReadonlySet<string> = new Set<ToolFailureCode>([
  'TOOL_FAILED',
  'TOOL_DENIED',
  'TOOL_INVALID_INPUT',
  'TOOL_TIMEOUT',
]);

/** The code, text and structured result of what a tool threw. */
export function describeToolFailure(error: unknown): {
  code: ToolFailureCode;
  message: string;
  structured?: unknown;
} {
  if (CairnError.is(error) && TOOL_FAILURE_CODES.has(error.code)) {
    const structured = error.details?.structured;
    return {
      code: error.code as ToolFailureCode,
      message: error.message,
      ...definedFields({ structured }),
    };
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return { code: 'TOOL_FAILED', message };
}
