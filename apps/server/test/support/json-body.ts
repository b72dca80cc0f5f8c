/** The error shape every failure is answered with. */
export interface ApiErrorBody {
  error: { code: string; message: string };
}

/** The JSON body, typed as the test expects it to be. */
export async function jsonBody<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The `error.code` of an error answer. */
export async function errorCode(response: Response): Promise<string> {
  return (await jsonBody<ApiErrorBody>(response)).error.code;
}
