import { convertClaudeCodeResult, createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import { convertGeminiCliResult, createGeminiCliConverter } from '@cairn/agent-cli/gemini-cli';
import type { AgentOutput } from '@cairn/core';
import { cliFailure } from '../cli-error.js';

/** The agent CLIs whose saved output `cairn convert` reads. */
export type TranscriptSource = 'claude-code' | 'gemini-cli';

/** A line converter, as the providers make them. */
export interface TranscriptLineConverter {
  push(line: string): AgentOutput[];
  end(): AgentOutput[];
}

/** How to read one CLI's saved output: the converters the agent executor runs live, and the help text. */
export interface TranscriptFormat {
  /** "Claude Code" */
  name: string;
  /** `now` stamps events whose line has no time of its own. */
  createConverter(now: () => Date): TranscriptLineConverter;
  /** The CLI's single `--output-format json` document. */
  convertDocument(json: unknown, now: () => Date): AgentOutput[];
  /** The command line that saves a transcript this command reads. */
  saveCommand: string;
}

const FORMATS: Readonly<Record<TranscriptSource, TranscriptFormat>> = {
  'claude-code': {
    name: 'Claude Code',
    createConverter: (now) => createClaudeCodeConverter({ now }),
    convertDocument: (json, now) => convertClaudeCodeResult(json, now),
    saveCommand: 'claude -p "<prompt>" --output-format stream-json --verbose > transcript.jsonl',
  },
  'gemini-cli': {
    name: 'Gemini CLI',
    createConverter: (now) => createGeminiCliConverter({ now }),
    convertDocument: (json, now) => convertGeminiCliResult(json, { now }),
    saveCommand: 'gemini -p "<prompt>" --output-format stream-json > transcript.jsonl',
  },
};

/** The format of `source`; `INVALID_ARGUMENT` for a name that is not one (the CLI passes strings). */
export function transcriptFormat(source: string): TranscriptFormat {
  const format = Object.hasOwn(FORMATS, source) ? FORMATS[source as TranscriptSource] : undefined;
  if (format !== undefined) return format;
  throw cliFailure(
    'INVALID_ARGUMENT',
    `--from must be one of ${Object.keys(FORMATS).join(', ')}, got "${source}"`,
  );
}
