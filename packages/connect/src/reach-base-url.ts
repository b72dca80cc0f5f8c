import { CairnError, definedFields } from '@cairn/core';
import { probeModels } from './probe-models.js';
import type { SettingNames } from './setting-names.js';

/** A base URL the user set, and where: `--base-url`, `OPENAI_BASE_URL`, a config file. */
export interface ConfiguredURL {
  url: string;
  from: string;
}

// A configured server is expected to be there, so it gets longer than the local guess.
const CONFIGURED_PROBE_TIMEOUT_MS = 2_000;

/**
 * Checks a configured base URL is an http(s) URL without credentials and answers at all (any HTTP
 * status will do); returns the models it lists.
 */
export async function reachBaseURL(
  { url, from }: ConfiguredURL,
  apiKey: string | undefined,
  names: SettingNames,
): Promise<string[]> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed !== undefined && (parsed.username !== '' || parsed.password !== '')) {
    // Never echoed: the URL carries a secret (and fetch refuses such URLs anyway).
    const keyNames = [...new Set([names.apiKey, 'OPENAI_API_KEY'])];
    throw new CairnError(
      'INVALID_ARGUMENT',
      `${from} has a user name or password in it (${parsed.protocol}//***@${parsed.host}${parsed.pathname})`,
      { details: { fix: `remove them from the URL and pass the key with ${keyNames.join(' or ')}` } },
    );
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new CairnError('INVALID_ARGUMENT', `${from} is not an http(s) URL: ${url}`, {
      details: { fix: 'give the API root with its scheme, e.g. http://localhost:11434/v1' },
    });
  }
  const probe = await probeModels(url, {
    timeoutMs: CONFIGURED_PROBE_TIMEOUT_MS,
    ...definedFields({ apiKey }),
  });
  if (!probe.reachable) {
    const urlNames = [...new Set([names.baseURL, 'OPENAI_BASE_URL'])];
    throw new CairnError('LLM_UNAVAILABLE', `cannot reach ${url}: ${probe.reason}`, {
      details: { fix: `start the server, or fix ${urlNames.join(' / ')}` },
    });
  }
  return probe.modelIds;
}
