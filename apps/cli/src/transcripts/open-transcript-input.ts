import { type FileHandle, open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { cliFailure } from '../cli-error.js';
import type { CliIO } from '../io.js';

/** A transcript being read: its lines, one at a time (a large file is never read whole). */
export interface TranscriptInput {
  /** How messages name it: the file as given, or "stdin". */
  label: string;
  lines: AsyncIterable<string>;
  /** When it was saved (ms): the file's modification time; now for stdin. */
  savedAt: number;
  close(): Promise<void>;
}

function linesOf(input: NodeJS.ReadableStream): AsyncIterable<string> {
  // `crlfDelay: Infinity`: a \r\n ends one line, whatever the chunking.
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

async function openFile(file: string, cwd: string): Promise<{ handle: FileHandle; modifiedAt: number }> {
  let handle: FileHandle;
  try {
    handle = await open(resolve(cwd, file), 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw cliFailure('INVALID_ARGUMENT', `${file} does not exist`);
    throw cliFailure('INVALID_ARGUMENT', `${file} cannot be read: ${(error as Error).message}`);
  }
  const stats = await handle.stat();
  // Opening a directory succeeds; reading it would fail mid-way with a less clear message.
  if (stats.isDirectory()) {
    await handle.close();
    throw cliFailure('INVALID_ARGUMENT', `${file} is a directory, not a transcript file`);
  }
  return { handle, modifiedAt: stats.mtimeMs };
}

/** `file`, or stdin for none or `-`; stdin must be piped, not a terminal nobody will type JSON into. */
export async function openTranscriptInput(file: string | undefined, io: CliIO): Promise<TranscriptInput> {
  if (file === undefined || file === '-') {
    if (io.stdin.isTTY === true) {
      throw cliFailure(
        'INVALID_ARGUMENT',
        'no transcript to convert',
        'pass its file, or pipe it in: cairn convert --from claude-code - < transcript.jsonl',
      );
    }
    return { label: 'stdin', lines: linesOf(io.stdin), savedAt: Date.now(), close: async () => {} };
  }
  const { handle, modifiedAt } = await openFile(file, io.cwd);
  return {
    label: file,
    lines: linesOf(handle.createReadStream()),
    savedAt: modifiedAt,
    close: () => handle.close(),
  };
}
