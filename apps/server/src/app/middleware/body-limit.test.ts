import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { bodyLimit } from './body-limit.js';

function app() {
  const limited = new Hono();
  limited.use('*', bodyLimit({ maxSize: 10, onError: (c) => c.text('too large', 413) }));
  limited.post('/', async (c) => c.text(`got ${(await c.req.text()).length}`));
  limited.get('/', (c) => c.text('no body'));
  return limited;
}

const chunked = (text: string) =>
  new Request('http://localhost/', {
    method: 'POST',
    headers: { 'transfer-encoding': 'chunked' },
    body: new ReadableStream({
      start(controller) {
        for (const piece of text) controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);

describe('bodyLimit', () => {
  it('judges a body by its Content-Length (as a server sees it), or else by counting', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      app().request('/', { method: 'POST', body, headers });
    const declared = await post('x'.repeat(11), { 'content-length': '11' });
    expect([declared.status, await declared.text()]).toEqual([413, 'too large']);
    // The header alone decides: the body is not read.
    expect((await post('x', { 'content-length': '11' })).status).toBe(413);
    const fits = await post('x'.repeat(10), { 'content-length': '10' });
    expect([fits.status, await fits.text()]).toEqual([200, 'got 10']);
    expect((await post('x'.repeat(11))).status).toBe(413);
  });

  it('counts a chunked body as it is read', async () => {
    const response = await app().request(chunked('y'.repeat(11)));
    expect(response.status).toBe(413);
    const fits = await app().request(chunked('y'.repeat(10)));
    expect([fits.status, await fits.text()]).toEqual([200, 'got 10']);
  });

  it('lets a request without a body through', async () => {
    expect(await (await app().request('/')).text()).toBe('no body');
  });
});
