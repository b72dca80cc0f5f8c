/** What `GET <base>/models` gave: any HTTP answer means the server is there. */
export type ModelsProbe =
  | { reachable: true; status: number; modelIds: string[] }
  | { reachable: false; reason: string };

/** The ids of an OpenAI-style model list (`{ data: [{ id }] }`); none for any other body. */
function modelIdsOf(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry) => {
    const id = (entry as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id !== '' ? [id] : [];
  });
}

function unreachableReason(error: unknown, timeoutMs: number): string {
  if ((error as { name?: unknown }).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  // fetch wraps the socket error (ECONNREFUSED, ENOTFOUND …) as its cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Asks an OpenAI-compatible server for its models: is it there, and what does it serve? */
export async function probeModels(
  baseURL: string,
  options: { timeoutMs: number; apiKey?: string },
): Promise<ModelsProbe> {
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  try {
    const response = await fetch(url, {
      headers: options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return { reachable: true, status: response.status, modelIds: [] };
    }
    // A list that is not JSON, or too slow to arrive, still means the server is there.
    const body: unknown = await response.json().catch(() => undefined);
    return { reachable: true, status: 200, modelIds: modelIdsOf(body) };
  } catch (error) {
    return { reachable: false, reason: unreachableReason(error, options.timeoutMs) };
  }
}
