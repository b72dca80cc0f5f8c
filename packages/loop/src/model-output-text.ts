/**
 * What the model reads of a tool's non-string output: its JSON text. A value JSON cannot hold
 * (a cycle, a BigInt) is written with `String` rather than failing a call that succeeded.
 */
export function modelOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}
