import {
  MOCK_PROVIDER_PROTOCOLS,
  startMockProviderServer,
} from '../mock-servers/start-mock-provider-server.js';
import type { ModelAdapterConformanceCase, ModelAdapterConformanceOptions } from './conformance-options.js';
import { CONFORMANCE_API_KEY } from './conformance-requests.js';

/**
 * Runs one case against a fresh mock server playing its turns; throws when the adapter does not
 * conform. The suite calls it per case; call it directly to check that a broken adapter fails.
 */
export async function runModelAdapterConformanceCase(
  testCase: ModelAdapterConformanceCase,
  options: Pick<ModelAdapterConformanceOptions, 'provider' | 'createAdapter'>,
): Promise<void> {
  const protocol =
    typeof options.provider === 'string' ? MOCK_PROVIDER_PROTOCOLS[options.provider] : options.provider;
  const server = await startMockProviderServer({ provider: protocol, turns: testCase.turns });
  try {
    const adapter = options.createAdapter({
      baseURL: server.baseURL,
      apiKey: CONFORMANCE_API_KEY,
      maxRetries: testCase.maxRetries ?? 0,
    });
    await testCase.run({ protocol, server, adapter });
  } finally {
    await server.close();
  }
}
