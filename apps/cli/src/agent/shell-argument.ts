// Characters a POSIX shell reads literally outside quotes.
const PLAIN = /^[\w@%+=:,./-]+$/;

/** `value` as one argument of a command line a person can paste into a POSIX shell. */
export function shellArgument(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
