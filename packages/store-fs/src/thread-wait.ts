import { getSystemErrorName } from 'node:util';

// Atomics.waitAsync (Node >= 16) is in TypeScript's es2024 lib, newer than the project's target.
export const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
    ): { async: boolean; value: Promise<unknown> | string };
  }
).waitAsync;

/**
 * Calls `onChange` once `array[index]` is no longer `seen` (in a microtask when it already is not):
 * one `Atomics.waitAsync`, which keeps no process alive.
 */
export function onceChanged(array: Int32Array, index: number, seen: number, onChange: () => void): void {
  const wait = waitAsync(array, index, seen);
  if (wait.async) void (wait.value as Promise<unknown>).then(onChange);
  else queueMicrotask(onChange);
}

/** The error fdatasync threw in the thread, rebuilt from its errno (negative, as libuv's). */
export function syncError(errno: number): Error {
  let code: string;
  try {
    code = getSystemErrorName(errno);
  } catch {
    code = 'EIO';
  }
  return Object.assign(new Error(`${code}: fdatasync failed`), { errno, code });
}
