/** What a log may say about `error`: its name and code, never its message or stack, which may hold data. */
export function errorFields(error: unknown): { errorName: string; errorCode?: string } {
  const errorName = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? { errorName, errorCode: code } : { errorName };
}
