import type { OutputStream } from '../io.js';

/**
 * Whether the model's answers are rendered as Markdown on `stream`: on a terminal, unless
 * `--plain`. Anywhere else (a pipe, a file: `cairn -p … > answer.md`) scripts get the model's text
 * exactly as it wrote it.
 */
export function markdownEnabled(stream: OutputStream, settings: { plain: boolean }): boolean {
  return stream.isTTY === true && !settings.plain;
}
