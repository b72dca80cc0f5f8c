import { definedFields } from '@cairn/core';
import type { MockProviderProtocol, MockServerProvider } from './mock-provider-protocol.js';
import {
  MOCK_PROVIDER_PROTOCOLS,
  type MockProviderServer,
  startMockProviderServer,
} from './start-mock-provider-server.js';

export interface ReplayServerOptions {
  /** A built-in protocol by name, or your own `MockProviderProtocol` object. */
  provider: MockServerProvider | MockProviderProtocol;
  /**
   * The answers in request order, each as the provider wrote it (a documented example, a
   * captured response): the JSON body of a whole answer, or the SSE text of a streamed one.
   */
  answers: readonly string[];
  /**
   * Answer 400, as the real API does, to a request breaking the protocol's rules (default true):
   * what an adapter makes of an answer must go back as a request the API accepts.
   */
  validateRequests?: boolean;
}

/**
 * A mock provider server that replays given answers rather than writing its own: each request
 * (checked with the protocol's request rules first) gets the next answer, whole or streamed as the
 * request asks. Every request is recorded in `requests`, refused ones too.
 */
export function startReplayServer(options: ReplayServerOptions): Promise<MockProviderServer> {
  const protocol =
    typeof options.provider === 'string' ? MOCK_PROVIDER_PROTOCOLS[options.provider] : options.provider;
  const { answers } = options;
  return startMockProviderServer({
    provider: {
      ...protocol,
      response: ({ requestIndex }) => JSON.parse(answers[requestIndex] as string) as unknown,
    },
    // A streamed request gets the answer's SSE as written; a whole one goes through `response`.
    turns: (request, index) => {
      const answer = answers[index];
      if (answer === undefined) {
        throw new Error(`replay server: no answer for request #${index + 1} (${answers.length} given)`);
      }
      return request.stream ? { rawSse: answer } : {};
    },
    ...definedFields({ validateRequests: options.validateRequests }),
  });
}
