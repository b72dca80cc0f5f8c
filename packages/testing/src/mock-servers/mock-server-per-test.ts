import { afterEach } from 'vitest';
import {
  type MockProviderServer,
  type MockProviderServerOptions,
  startMockProviderServer,
} from './start-mock-provider-server.js';

/**
 * For the mock servers' own tests: `start` a server in a test (closing the one it replaces) and
 * read it back as `server`; whichever is open is closed after each test, a failing one too.
 */
export function mockServerPerTest(): {
  start(options: MockProviderServerOptions): Promise<MockProviderServer>;
  readonly server: MockProviderServer | undefined;
} {
  let server: MockProviderServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    async start(options) {
      await server?.close();
      server = await startMockProviderServer(options);
      return server;
    },
    get server() {
      return server;
    },
  };
}
