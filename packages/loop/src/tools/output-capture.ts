/** A stream's output kept within a byte budget: its start and its end, the middle counted but dropped. */
export interface OutputCapture {
  append(chunk: Buffer): void;
  /** The output, with a line saying how much was cut when it was over the budget. */
  text(): string;
}

export function createOutputCapture(maxBytes: number): OutputCapture {
  const headLimit = Math.ceil(maxBytes / 2);
  const tailLimit = maxBytes - headLimit;
  const head: Buffer[] = [];
  let headBytes = 0;
  const tail: Buffer[] = [];
  let tailBytes = 0;
  let totalBytes = 0;

  function keepInTail(chunk: Buffer): void {
    tail.push(chunk);
    tailBytes += chunk.length;
    // Drop whole chunks from the front, then cut the first one to fit.
    while (tailBytes > tailLimit) {
      const first = tail[0] as Buffer;
      const excess = tailBytes - tailLimit;
      if (first.length <= excess) {
        tail.shift();
        tailBytes -= first.length;
      } else {
        tail[0] = first.subarray(excess);
        tailBytes -= excess;
      }
    }
  }

  return {
    append(chunk) {
      totalBytes += chunk.length;
      const intoHead = Math.min(chunk.length, headLimit - headBytes);
      if (intoHead > 0) {
        head.push(chunk.subarray(0, intoHead));
        headBytes += intoHead;
      }
      if (intoHead < chunk.length) keepInTail(chunk.subarray(intoHead));
    },
    text() {
      const cut = totalBytes - headBytes - tailBytes;
      if (cut === 0) return Buffer.concat([...head, ...tail]).toString('utf8');
      return `${Buffer.concat(head).toString('utf8')}\n[… ${cut} bytes of output cut …]\n${Buffer.concat(tail).toString('utf8')}`;
    },
  };
}
