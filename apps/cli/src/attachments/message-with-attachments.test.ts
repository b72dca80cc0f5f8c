import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineWithAttachments, mentionedPaths, withParts } from './message-with-attachments.js';

function cwdWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-mention-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('@path tokens', () => {
  it('are paths when the file exists or the token looks like one; @names and emails stay text', () => {
    const cwd = cwdWith({ README: 'x', 'docs/a.md': 'y' });
    expect(mentionedPaths('read @README and @docs/a.md, then ask @alice or bob@example.com', cwd)).toEqual([
      'README',
      'docs/a.md',
    ]);
    expect(mentionedPaths('@missing.png?', cwd)).toEqual(['missing.png']);
    expect(mentionedPaths('@a/b', cwd)).toEqual(['a/b']);
  });

  it('attach the files after the text, which keeps the tokens', async () => {
    const cwd = cwdWith({ 'notes.txt': 'milk\n' });
    expect(await lineWithAttachments('see @notes.txt', cwd)).toEqual([
      { type: 'text', text: 'see @notes.txt' },
      {
        type: 'file',
        mediaType: 'text/plain',
        fileName: 'notes.txt',
        source: { type: 'base64', data: 'bWlsawo=' },
      },
    ]);
    expect(await lineWithAttachments('no files', cwd)).toBe('no files');
    await expect(lineWithAttachments('see @gone.txt', cwd)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'cannot attach gone.txt: no such file',
    });
  });

  it('a message of attachments only has no empty text part', () => {
    const part = {
      type: 'file' as const,
      mediaType: 'text/plain',
      source: { type: 'base64' as const, data: 'eA==' },
    };
    expect(withParts('', [part])).toEqual([part]);
  });
});
