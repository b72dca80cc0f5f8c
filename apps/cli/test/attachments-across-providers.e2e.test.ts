// Issue P's "done when": a conversation with an image and a PDF goes from the CLI into each store,
// out to each provider's mock in that provider's wire shape (the mocks refuse a request breaking
// the vendor's documented part rules with the vendor's 400), and, reloaded in another process,
// on to the next provider with the same bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { noisePng, onePagePdf, writeFiles } from './attachment-files.js';
import { cliEnv, ensureCliBuilt, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

const bodyOf = (server: { requests: { path: string; body: unknown }[] }, path: string) =>
  JSON.stringify(server.requests.filter((request) => request.path.includes(path)).at(-1)?.body ?? null);

// The request holds `expected` (a base64 string, too long to print when it is missing).
function expectSent(body: string, expected: string): void {
  expect(body.includes(expected), `the request lacks ${expected.slice(0, 80)}…`).toBe(true);
}

describe.each([
  ['fs', () => ({})],
  ['sqlite', () => ({})],
  ['postgres', () => ({ DATABASE_URL: inject('databaseUrl') })],
])('an image and a PDF on --store %s', (store, extraEnv) => {
  it('reach OpenAI, then Anthropic and Gemini from later processes, byte for byte', async () => {
    const [openai, anthropic, gemini] = await Promise.all([
      startMockProviderServer({ provider: 'openai', turns: [{ text: 'A chart and a report.' }] }),
      startMockProviderServer({ provider: 'anthropic', turns: [{ text: 'Still the chart.' }] }),
      startMockProviderServer({ provider: 'gemini', turns: [{ text: 'And the report.' }] }),
    ]);
    try {
      const dir = tempDir(`across-${store}`);
      const png = noisePng(200, 120);
      const pdf = onePagePdf('Quarterly figures');
      writeFiles(dir, { 'shot.png': png, 'report.pdf': pdf });
      const base = cliEnv(join(dir, 'data'), { CAIRN_STORE: store, ...extraEnv() });
      const run = (args: string[], env: Record<string, string>) =>
        runCairn(args, { env: { ...base, ...env }, cwd: dir });

      const first = await run(['-p', 'What is in these?', '--attach', 'shot.png', '--attach', 'report.pdf'], {
        CAIRN_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseURL,
        CAIRN_MODEL: 'gpt-4.1-mini',
      });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('A chart and a report.');
      const id = /conversation (\S+)/.exec(first.stderr)?.[1] as string;
      const pngBase64 = png.toString('base64');
      const pdfBase64 = pdf.toString('base64');
      const toOpenAI = bodyOf(openai, '/chat/completions');
      expectSent(toOpenAI, `"image_url":{"url":"data:image/png;base64,${pngBase64}"}`);
      expectSent(toOpenAI, `"file_data":"data:application/pdf;base64,${pdfBase64}"`);

      const second = await run(['-p', 'Which colours?', '--resume', id], {
        CAIRN_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: anthropic.baseURL,
        CAIRN_MODEL: 'claude-sonnet-5-5',
      });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('Still the chart.');
      const toAnthropic = bodyOf(anthropic, '/messages');
      expectSent(
        toAnthropic,
        `"type":"image","source":{"type":"base64","media_type":"image/png","data":"${pngBase64}"}`,
      );
      expectSent(toAnthropic, `"data":"${pdfBase64}"`);
      expect(toAnthropic).toContain('"type":"document"');
      expect(toAnthropic).toContain('A chart and a report.');

      const third = await run(
        ['-p', 'And the report?', '--resume', id, '--provider', 'gemini', '--base-url', gemini.baseURL],
        { GEMINI_API_KEY: 'gemini-test', CAIRN_MODEL: 'gemini-2.5-flash' },
      );
      expect(third.code, third.stderr).toBe(0);
      expect(third.stdout).toContain('And the report.');
      const toGemini = bodyOf(gemini, 'enerateContent');
      expectSent(toGemini, `"inlineData":{"mimeType":"image/png","data":"${pngBase64}"}`);
      expectSent(toGemini, `"inlineData":{"mimeType":"application/pdf","data":"${pdfBase64}"}`);
      expect(toGemini).toContain('Still the chart.');

      // The bytes live once in the store, not in the log: the exported conversation names them.
      const shown = await run(['conversations', 'show', id], {});
      expect(shown.stdout).toMatch(/\[image: shot\.png 200×120/);
      expect(shown.stdout).not.toContain(pngBase64.slice(0, 200));
      if (store === 'fs') {
        const logPath = join(
          dir,
          'data',
          'store',
          'projects',
          'default',
          'conversations',
          id,
          'messages.jsonl',
        );
        const log = readFileSync(logPath, 'utf8');
        expect(log.length).toBeLessThan(10_000);
      }
    } finally {
      await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
    }
  }, 120_000);
});
