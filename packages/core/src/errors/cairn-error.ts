import { definedFields } from '../objects/defined-fields.js';
import { type CairnErrorCode, isRetryableByDefault } from './cairn-error-code.js';

// A global symbol, so `CairnError.is` recognises errors thrown by another copy of this package
// (two versions installed side by side), where `instanceof` would fail.
const CAIRN_ERROR_BRAND = Symbol.for('@cairn/core/CairnError');

export interface CairnErrorOptions {
  /** Overrides the code's default retry advice. */
  retryable?: boolean | undefined;
  /** How long the caller should wait before retrying (from `Retry-After`, for example). */
  retryAfterMs?: number | undefined;
  /** The underlying error, kept for logs; never shown to end users by Cairn. */
  cause?: unknown;
  /** Structured, serialisable context: a field path, a conversation id, an HTTP status. */
  details?: Record<string, unknown> | undefined;
}

/** The JSON form of a `CairnError`, as sent over the wire and stored in error messages. */
export interface CairnErrorJSON {
  name: 'CairnError';
  code: CairnErrorCode;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
}

/** The one error type Cairn throws. Branch on `code`, never on `message`. */
export class CairnError extends Error {
  override readonly name = 'CairnError';
  readonly code: CairnErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly details?: Record<string, unknown>;

  constructor(code: CairnErrorCode, message: string, options: CairnErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? isRetryableByDefault(code);
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.details !== undefined) this.details = options.details;
    Object.defineProperty(this, CAIRN_ERROR_BRAND, { value: true });
  }

  /** True for any `CairnError` (from any installed copy of `@cairn/core`), optionally of one code. */
  static is(value: unknown, code?: CairnErrorCode): value is CairnError {
    if (typeof value !== 'object' || value === null || !(CAIRN_ERROR_BRAND in value)) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }

  toJSON(): CairnErrorJSON {
    return {
      name: 'CairnError',
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...definedFields({ retryAfterMs: this.retryAfterMs, details: this.details }),
    };
  }
}

/**
 * Returns `error` unchanged if it is already a `CairnError`; otherwise wraps it with `code`,
 * keeping the original as `cause`. Use at the edge where foreign errors enter Cairn.
 */
export function toCairnError(error: unknown, code: CairnErrorCode, message?: string): CairnError {
  if (CairnError.is(error)) return error;
  const text = message ?? (error instanceof Error ? error.message : String(error));
  return new CairnError(code, text, { cause: error });
}
