import { CairnError } from '@cairn/core';

/** Throws `INVALID_ARGUMENT` naming the option unless `value` is one of `allowed`. */
export function assertOneOf<T extends string>(
  name: string,
  allowed: readonly T[],
  value: unknown,
): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`,
      { details: { [name]: value } },
    );
  }
}
