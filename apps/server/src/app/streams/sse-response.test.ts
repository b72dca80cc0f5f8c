import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { ServerEnv } from '../server-env.js';
import { sseResponse } from './sse-response.js';

describe('sseResponse on a web stream (app.request, other runtimes)', () => {
  it('ends the writer when the producer settles: its end listeners run, its keep-alive timer stops', async () => {
    let ended = false;
    const app = new Hono<ServerEnv>().get('/stream', (c) =>
      sseResponse(
        c,
        undefined,
        async (writer) => {
          writer.onEnd(() => {
            ended = true;
          });
          writer.keepAlive('keep-alive', 60_000);
          await writer.write('data: one\n\n');
        },
        (error) => {
          throw error;
        },
      ),
    );
    const response = await app.request('/stream');
    expect(await response.text()).toBe('data: one\n\n');
    expect(ended).toBe(true);
  });
});
