import type { ProxyOptions } from 'vite';

/** cairn-server's default address (`--port` 8787 on 127.0.0.1). */
export const DEFAULT_CAIRN_SERVER_URL = 'http://127.0.0.1:8787';

export interface CairnProxySettings {
  /** Where cairn-server listens; default {@link DEFAULT_CAIRN_SERVER_URL}. */
  CAIRN_SERVER_URL?: string | undefined;
  /** The server's API token, when it has one. */
  CAIRN_API_TOKEN?: string | undefined;
}

/**
 * Vite's dev and preview servers forward `/v1` to cairn-server: the page and the API share one
 * origin, so the server needs no CORS, and the token is added here, on the way through, so it never
 * reaches the browser's JavaScript.
 */
export function cairnProxy(settings: CairnProxySettings): Record<string, ProxyOptions> {
  const token = settings.CAIRN_API_TOKEN?.trim();
  return {
    '/v1': {
      target: settings.CAIRN_SERVER_URL?.trim() || DEFAULT_CAIRN_SERVER_URL,
      changeOrigin: true,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    },
  };
}
