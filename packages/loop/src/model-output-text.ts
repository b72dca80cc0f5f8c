// JSON has no BigInt, and a value reached again through its own fields (a cycle) cannot be written.
function jsonSafe(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown) {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    // `this` is the object holding `value`: the ancestors above it are the ones still open.
    while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[Circular]';
    ancestors.push(value);
    return value;
  };
}

/**
 * What the model reads of a tool's non-string output: its JSON text, with BigInts as digits and
 * cycles marked, so a call that succeeded is never reported as failed for how it is written.
 */
export function modelOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return JSON.stringify(output, jsonSafe()) ?? String(output);
  } catch {
    return String(output);
  }
}
