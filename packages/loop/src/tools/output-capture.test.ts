import { describe, expect, it } from 'vitest';
import { createOutputCapture } from './output-capture.js';

const captured = (maxBytes: number, chunks: string[]) => {
  const capture = createOutputCapture(maxBytes);
  for (const chunk of chunks) capture.append(Buffer.from(chunk));
  return capture.text();
};

describe('createOutputCapture', () => {
  it('keeps output within the budget whole', () => {
    expect(captured(10, ['abc', 'defg', 'hij'])).toBe('abcdefghij');
  });

  it('keeps the start and the end of longer output, saying how much was cut', () => {
    expect(captured(6, ['abcdef', 'ghij', 'klmn'])).toBe('abc\n[… 8 bytes of output cut …]\nlmn');
    expect(captured(6, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])).toBe(
      'abc\n[… 2 bytes of output cut …]\nfgh',
    );
  });
});
