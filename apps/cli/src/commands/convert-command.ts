import { basename, resolve } from 'node:path';
import { exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import { createConversionOutput } from '../transcripts/conversion-output.js';
import { convertTranscript } from '../transcripts/convert-transcript.js';
import { openTranscriptInput } from '../transcripts/open-transcript-input.js';
import { type TranscriptSource, transcriptFormat } from '../transcripts/transcript-formats.js';

export interface ConvertCommandOptions {
  from: TranscriptSource;
  /** The saved transcript; stdin when undefined or `-`. */
  file?: string;
  /** `log`: the messages as stored; `display`: the display view (tool calls merged with results). */
  view: 'log' | 'display';
  /** `jsonl`: one message per line; `md`: the display view as Markdown (whatever `view`). */
  format: 'jsonl' | 'md';
  /** The directory the agent ran in: paths inside it are shown relative in the display view. */
  cwd?: string;
}

/**
 * `cairn convert --from claude-code|gemini-cli [FILE|-]`: a saved agent CLI transcript (stream-json,
 * or its `--output-format json` document) as Cairn messages on stdout. Skipped lines are counted on
 * stderr; input with nothing to convert fails with exit code 2.
 */
export async function runConvertCommand(
  options: ConvertCommandOptions,
  deps: { io: CliIO },
): Promise<number> {
  const { io } = deps;
  try {
    const format = transcriptFormat(options.from);
    const input = await openTranscriptInput(options.file, io);
    try {
      const title =
        input.label === 'stdin'
          ? `${format.name} transcript`
          : `${format.name} transcript: ${basename(input.label)}`;
      const output = createConversionOutput(
        {
          view: options.view,
          format: options.format,
          title,
          ...(options.cwd === undefined ? {} : { cwd: resolve(io.cwd, options.cwd) }),
        },
        io.stdout,
      );
      const skipped = await convertTranscript(input.lines, {
        format,
        label: input.label,
        savedAt: input.savedAt,
        onLogMessage: output.add,
      });
      output.end();
      if (skipped.count > 0) io.stderr.write(`${skipped.note(input.label, format.name)}\n`);
      return 0;
    } finally {
      await input.close();
    }
  } catch (error) {
    io.stderr.write(`${formatCliError(error)}\n`);
    return exitCodeFor(error);
  }
}
