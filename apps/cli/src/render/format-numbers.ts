/** `12,345`: counts and tokens the same way everywhere, whatever the user's locale. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** `turn` for 1, `turns` otherwise. */
export function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

/** `2026-11-22 15:30` from an ISO timestamp (UTC, as stored). */
export function formatStoredTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}
