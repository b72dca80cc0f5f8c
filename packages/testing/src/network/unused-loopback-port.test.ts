import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { unusedLoopbackPort } from './unused-loopback-port.js';

describe('unusedLoopbackPort', () => {
  it('gives a port below the ephemeral range where a connection is refused', async () => {
    const port = await unusedLoopbackPort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      connect({ host: '127.0.0.1', port }).once('error', resolve);
    });
    expect(error.code).toBe('ECONNREFUSED');
  });
});
