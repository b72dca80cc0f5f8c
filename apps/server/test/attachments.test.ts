import { randomBytes } from 'node:crypto';
import type { ContentPart, ConversationMessage } from '@cairn/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiErrorBody, errorCode, jsonBody } from './support/json-body.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'attachments-test-token-0123456789';

// A PNG's signature and IHDR header (320×240), then noise: what the server reads of an image.
function png(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  bytes.writeUInt32BE(320, 16);
  bytes.writeUInt32BE(240, 20);
  return bytes;
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const base64Part = (type: 'image' | 'file', mediaType: string, bytes: Buffer, fileName?: string) => ({
  type,
  mediaType,
  source: { type: 'base64', data: bytes.toString('base64') },
  ...(fileName === undefined ? {} : { fileName }),
});

const postJson = (server: TestServer, id: string, body: object) =>
  server.request(`/v1/conversations/${id}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const postForm = (server: TestServer, id: string, form: FormData) =>
  server.request(`/v1/conversations/${id}/messages`, { method: 'POST', body: form });

const storedParts = async (server: TestServer, id: string): Promise<ContentPart[]> => {
  const [user] = await server.store.load(id, { limit: 1 });
  return (user as ConversationMessage).content as ContentPart[];
};

const blobOf = (part: ContentPart | undefined) => (part as { source: { sha256: string } }).source.sha256;

describe('posting attachments', () => {
  it('takes base64 JSON parts, stores large bytes as blobs and serves them with their type', async () => {
    server = await startTestServer({ turns: [{ text: 'a chart' }], apiToken: TOKEN });
    const image = png(20_000);
    const response = await postJson(server, 'c1', {
      content: [
        { type: 'text', text: 'what is this?' },
        base64Part('image', 'image/png', image, 'chart.png'),
        base64Part('file', 'application/pdf', PDF, 'Q3 report.pdf'),
      ],
    });
    expect(response.status).toBe(200);
    const [text, stored, pdf] = await storedParts(server, 'c1');
    expect(text).toEqual({ type: 'text', text: 'what is this?' });
    expect(stored).toMatchObject({
      type: 'image',
      mediaType: 'image/png',
      fileName: 'chart.png',
      width: 320,
      height: 240,
      source: { type: 'blob', size: image.length },
    });
    // Small bytes stay inline in the log.
    expect(pdf).toMatchObject({ type: 'file', source: { type: 'base64' } });

    const url = `/v1/conversations/c1/attachments/${blobOf(stored)}`;
    const served = await server.request(url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    expect(Object.fromEntries(served.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(image.length),
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="chart.png"; filename*=UTF-8\'\'chart.png',
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${blobOf(stored)}"`,
    });
    const again = await server.request(url, { headers: { 'if-none-match': `"${blobOf(stored)}"` } });
    expect(again.status).toBe(304);

    // The same auth as the conversation: no token, no bytes.
    expect((await fetch(`${server.baseURL}${url}`)).status).toBe(401);
    // Another conversation does not hold that blob; a bad hash is a 400.
    await server.postMessage('c2', 'hi');
    const elsewhere = await server.request(`/v1/conversations/c2/attachments/${blobOf(stored)}`);
    expect(elsewhere.status).toBe(404);
    expect(await errorCode(elsewhere)).toBe('STORE_NOT_FOUND');
    expect((await server.request('/v1/conversations/c1/attachments/not-a-hash')).status).toBe(400);
  });

  it('takes multipart/form-data: the text, then the files in order; documents download as attachments', async () => {
    server = await startTestServer({ turns: [{ text: 'ok' }] });
    const form = new FormData();
    form.append('content', 'compare these');
    form.append('file', new Blob([png(8000)], { type: 'image/png' }), 'before.png');
    // A browser sends octet-stream for a type it does not know: the bytes say what it is.
    form.append(
      'file',
      new Blob([Buffer.concat([PDF, randomBytes(8000)])], { type: 'application/octet-stream' }),
      'räport.pdf',
    );
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'data.csv');
    const response = await postForm(server, 'm1', form);
    expect(response.status, await response.clone().text()).toBe(200);
    const parts = await storedParts(server, 'm1');
    expect(
      parts.map((part) => {
        const { mediaType, fileName } = part as { mediaType?: string; fileName?: string };
        return [part.type, mediaType, fileName];
      }),
    ).toEqual([
      ['text', undefined, undefined],
      ['image', 'image/png', 'before.png'],
      ['file', 'application/pdf', 'räport.pdf'],
      ['file', 'text/csv', 'data.csv'],
    ]);
    const served = await server.request(`/v1/conversations/m1/attachments/${blobOf(parts[2])}`);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe(
      'attachment; filename="r_port.pdf"; filename*=UTF-8\'\'r%C3%A4port.pdf',
    );
  });
});

describe('refused attachments: a clear error, and nothing stored', () => {
  const cases: Array<[string, () => FormData | object, number, string, RegExp]> = [
    [
      'a type not on the allowlist',
      () => ({ content: [base64Part('file', 'text/html', Buffer.from('<p>hi</p>'), 'page.html')] }),
      415,
      'UNSUPPORTED_CONTENT',
      /page\.html: text\/html cannot be attached/,
    ],
    [
      'an SVG with script',
      () => {
        const form = new FormData();
        form.append(
          'file',
          new Blob(['<svg><script>alert(1)</script></svg>'], { type: 'image/svg+xml' }),
          'x.svg',
        );
        return form;
      },
      400,
      'INVALID_MESSAGE',
      /x\.svg: the SVG holds script/,
    ],
    [
      'a media type that does not match the bytes',
      () => ({ content: [base64Part('file', 'application/pdf', png(100), 'fake.pdf')] }),
      400,
      'INVALID_MESSAGE',
      /fake\.pdf: media type application\/pdf does not match the bytes \(image\/png\)/,
    ],
    [
      'a truncated base64 string',
      () => ({
        content: [
          {
            type: 'image',
            mediaType: 'image/png',
            source: { type: 'base64', data: 'iVBORw0KGgoAAAANSUhEUg' },
          },
        ],
      }),
      400,
      'INVALID_ARGUMENT',
      /not whole base64/,
    ],
    [
      'a 0-byte file',
      () => {
        const form = new FormData();
        form.append('content', 'see');
        form.append('file', new Blob([], { type: 'text/plain' }), 'empty.txt');
        return form;
      },
      400,
      'INVALID_MESSAGE',
      /empty\.txt: the file is empty/,
    ],
    [
      'attachments over the limit',
      () => {
        const form = new FormData();
        form.append('file', new Blob([png(40_000)], { type: 'image/png' }), 'a.png');
        form.append('file', new Blob([png(40_000)], { type: 'image/png' }), 'b.png');
        return form;
      },
      413,
      'PAYLOAD_TOO_LARGE',
      /attachments total 80000 bytes, over the 65536-byte limit/,
    ],
    [
      'a body far over the limit (a 100 MB upload is refused as it streams)',
      () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(2 * 1024 * 1024)], { type: 'image/png' }), 'huge.png');
        return form;
      },
      413,
      'PAYLOAD_TOO_LARGE',
      /request body too large/,
    ],
  ];

  it.each(cases)('%s', async (_what, body, status, code, message) => {
    server = await startTestServer({ turns: [{ text: 'never' }], attachmentLimitBytes: 64 * 1024 });
    const made = body();
    const response =
      made instanceof FormData ? await postForm(server, 'bad', made) : await postJson(server, 'bad', made);
    expect(response.status).toBe(status);
    const { error } = await jsonBody<ApiErrorBody>(response);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(await server.store.load('bad')).toEqual([]);
  });

  it('a message of nothing but blank text is refused', async () => {
    server = await startTestServer();
    const response = await postJson(server, 'c', {
      content: [{ type: 'text', text: ' ' }],
    });
    expect(response.status).toBe(400);
    expect(await postForm(server, 'c', new FormData()).then((r) => r.status)).toBe(400);
  });
});

describe('the OpenAPI document', () => {
  it('describes both bodies, the 413/415 answers and the attachments route', async () => {
    server = await startTestServer();
    const document = await jsonBody<{
      paths: Record<string, Record<string, { requestBody?: { content: object }; responses: object }>>;
    }>(await server.request('/openapi.json'));
    const post = document.paths['/v1/conversations/{id}/messages']?.post;
    expect(Object.keys(post?.requestBody?.content ?? {})).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
    expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(['413', '415']));
    expect(document.paths['/v1/conversations/{id}/attachments/{sha256}']?.get).toBeDefined();
  });
});
