import { startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { noisePng, writeFiles } from './attachment-files.js';
import { chatRequests, latestStoredLog, mockEnv, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

describe('attachments in a real terminal', () => {
  it('--attach goes with the first message, @path with its line; a bad @path is said and that line not sent', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'ok' }, { text: 'ok' }],
    });
    const dir = tempDir('pty-attach');
    writeFiles(dir, { 'shot.png': noisePng(320, 240), 'notes.txt': 'remember the milk\n' });
    const env = mockEnv(dir, server.baseURL, { TERM: 'xterm-256color' });
    try {
      const chat = openTerminal(dir);
      chat.start(['chat', '--attach', 'shot.png'], env);
      await chat.waitFor((screen) => screen.includes('/help for commands'), 'the prompt');

      chat.type('see @missing.png');
      chat.keys('Enter');
      await chat.waitFor(
        (screen) => screen.includes('cannot attach missing.png: no such file'),
        'the refusal',
      );
      expect(chatRequests(server)).toHaveLength(0);
      expect(await latestStoredLog(dir)).toEqual([]);

      chat.type('what are @notes.txt and this?');
      chat.keys('Enter');
      await chat.waitFor(
        (screen) =>
          /attached \[image: shot\.png 320×240, 2\d\d KB\]\s+attached \[file: notes\.txt, 18 B\]/.test(
            screen,
          ),
        'the attachments named',
      );
      await expect
        .poll(async () => (await latestStoredLog(dir))[0]?.content)
        .toEqual([
          { type: 'text', text: 'what are @notes.txt and this?' },
          expect.objectContaining({
            type: 'image',
            fileName: 'shot.png',
            source: expect.objectContaining({ type: 'blob' }),
          }),
          expect.objectContaining({ type: 'file', fileName: 'notes.txt' }),
        ]);
      chat.type('/exit');
      chat.keys('Enter');
      await chat.waitFor((screen) => screen.includes('cairn chat --resume'), 'the exit line');
    } finally {
      await server.close();
    }
  });
});
