import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ContentPart, INLINE_DATA_LIMIT } from '@cairn/core';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { noisePng, onePagePdf, writeFiles } from './attachment-files.js';
import { chatRequests, ensureCliBuilt, latestStoredLog, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

// A workspace with real files, and a data directory outside it.
function workspace(name: string) {
  const root = tempDir(name);
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  writeFiles(cwd, {
    'shot.png': noisePng(320, 240),
    'report.pdf': onePagePdf('Quarterly figures'),
    'notes.txt': 'remember the milk\n',
    'empty.txt': '',
    'evil.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    'clean.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>',
    'tool.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 2, 3]),
  });
  writeFileSync(join(root, 'secret.png'), noisePng(2, 2));
  symlinkSync(join(root, 'secret.png'), join(cwd, 'link.png'));
  return { cwd, dataDir: join(root, 'data') };
}

const mediaParts = (content: unknown) =>
  (content as ContentPart[]).filter((part) => part.type === 'image' || part.type === 'file');

describe('attachments', () => {
  it('--attach sends an image and a PDF after the prompt; the store keeps their bytes out of the log', async () => {
    const server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'a chart' }] });
    try {
      const { cwd, dataDir } = workspace('attach');
      const env = mockEnv(dataDir, server.baseURL);
      const run = await runCairn(
        ['-p', 'what is in these?', '--attach', 'shot.png', '--attach', './report.pdf'],
        { env, cwd },
      );
      expect(run.stderr).not.toContain('cannot attach');
      const [user] = await latestStoredLog(dataDir);
      expect(user?.role).toBe('user');
      expect((user?.content as ContentPart[] | undefined)?.[0]).toEqual({
        type: 'text',
        text: 'what is in these?',
      });
      const [image, pdf] = mediaParts(user?.content);
      expect(image).toMatchObject({
        type: 'image',
        mediaType: 'image/png',
        fileName: 'shot.png',
        width: 320,
        height: 240,
        source: { type: 'blob', size: statSync(join(cwd, 'shot.png')).size },
      });
      expect(pdf).toMatchObject({ type: 'file', mediaType: 'application/pdf', fileName: 'report.pdf' });
      // 230 KB of image, and the log line stays small: the bytes went to a blob.
      expect(JSON.stringify(user).length).toBeLessThan(INLINE_DATA_LIMIT * 2);

      const id = /conversation (chat-\S+)/.exec(run.stderr)?.[1] as string;
      const shown = await runCairn(['conversations', 'show', id], { env, cwd });
      expect(shown.stdout).toMatch(
        /› what is in these\?\n +\[image: shot\.png 320×240, 2\d\d KB\]\n +\[file: report\.pdf, \d+ B\]/,
      );
      const markdown = await runCairn(['conversations', 'export', id, '--format', 'md'], { env, cwd });
      expect(markdown.stdout).toContain('[image: shot.png 320×240,');
    } finally {
      await server.close();
    }
  });

  it('@path in a chat line attaches that file; @name that is no path stays text', async () => {
    const server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'ok' }] });
    try {
      const { cwd, dataDir } = workspace('mention');
      const env = mockEnv(dataDir, server.baseURL);
      await runCairn(['chat'], { env, cwd, input: 'ask @alice about @notes.txt.\n' });
      const [user] = await latestStoredLog(dataDir);
      expect((user?.content as ContentPart[] | undefined)?.[0]).toEqual({
        type: 'text',
        text: 'ask @alice about @notes.txt.',
      });
      expect(mediaParts(user?.content)).toEqual([
        expect.objectContaining({ type: 'file', mediaType: 'text/plain', fileName: 'notes.txt' }),
      ]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a missing file', 'nope.png', /cannot attach nope\.png: no such file/],
    [
      'a path outside the working directory',
      '../secret.png',
      /cannot attach \.\.\/secret\.png: it is outside/,
    ],
    ['a symlink out of the working directory', 'link.png', /cannot attach link\.png: it links outside/],
    ['a 0-byte file', 'empty.txt', /cannot attach empty\.txt: the file is empty/],
    ['an SVG with script', 'evil.svg', /cannot attach evil\.svg: the SVG holds script/],
    ['an unsupported type', 'clean.svg', /cannot attach clean\.svg: image\/svg\+xml cannot be attached/],
    ['an unknown type', 'tool.bin', /cannot attach tool\.bin: unknown file type/],
    ['the working directory itself', '.', /cannot attach \.\/?: it is outside/],
  ])('%s: one line naming the file, exit 2, nothing sent or stored', async (_what, path, message) => {
    const server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'never' }] });
    try {
      const { cwd, dataDir } = workspace('bad');
      const env = mockEnv(dataDir, server.baseURL);
      for (const args of [
        ['-p', 'look', '--attach', path],
        ['chat', '--attach', path, 'look'],
      ]) {
        const run = await runCairn(args, { env, cwd });
        expect(run.code, run.stderr).toBe(2);
        const lines = run.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(message);
        expect(lines[0]).toContain('[INVALID_ARGUMENT]');
      }
      // In the chat, a bad @path is said in the transcript and that line is not sent.
      const chat = await runCairn(['chat'], { env, cwd, input: `look at @${path === '.' ? './' : path}\n` });
      expect(chat.stdout).toMatch(message);
      expect(chatRequests(server)).toHaveLength(0);
      expect(await latestStoredLog(dataDir)).toEqual([]);
      expect(readdirSync(cwd)).not.toContain('store');
    } finally {
      await server.close();
    }
  });

  it('a file named as one type holding another is sent as what its bytes are', async () => {
    const server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'ok' }] });
    try {
      const { cwd, dataDir } = workspace('renamed');
      writeFileSync(join(cwd, 'photo.jpg'), noisePng(8, 8));
      await runCairn(['-p', 'look', '--attach', 'photo.jpg'], { env: mockEnv(dataDir, server.baseURL), cwd });
      const [user] = await latestStoredLog(dataDir);
      expect(mediaParts(user?.content)).toEqual([
        expect.objectContaining({ type: 'image', mediaType: 'image/png', fileName: 'photo.jpg' }),
      ]);
    } finally {
      await server.close();
    }
  });

  it('a file over the size limit is refused before it is read', async () => {
    const { cwd, dataDir } = workspace('big');
    // 21 MB of zeros after a PNG signature: a sparse file, so the test writes little.
    writeFileSync(join(cwd, 'huge.png'), noisePng(1, 1));
    const { truncateSync } = await import('node:fs');
    truncateSync(join(cwd, 'huge.png'), 21 * 1024 * 1024);
    const run = await runCairn(['-p', 'look', '--attach', 'huge.png'], {
      env: mockEnv(dataDir, 'http://127.0.0.1:9/v1'),
      cwd,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^cairn: cannot attach huge\.png: 22020096 bytes is over the 20971520-byte limit/,
    );
  });
});
