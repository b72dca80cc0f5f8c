/**
 * SQL for a timestamptz column as the ISO string `Date#toISOString()` gives (UTC, milliseconds), so
 * the store returns exactly the strings it was given whatever the session time zone or the type
 * parsers installed on the pool.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
