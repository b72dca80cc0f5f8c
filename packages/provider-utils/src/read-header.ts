/** Response headers as the SDKs expose them: a fetch `Headers` or a plain (Node-style) record. */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | null | undefined>>;

/** The value of header `name` (case-insensitive), the first one when it repeats. */
export function readHeader(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === null || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}
