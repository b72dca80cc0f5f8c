import type { Colors } from './colors.js';

export interface RenderPatchOptions {
  /** Lines shown at most; the rest is counted in a last "… N more lines" line. Default 40. */
  maxLines?: number;
  /** Put before every line. */
  indent?: string;
}

const DEFAULT_MAX_LINES = 40;
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * A unified diff coloured for a terminal: added lines green, removed red, hunk headers cyan, file
 * headers bold, other header lines dim. Every line ends with a line break ('' for an empty patch).
 */
export function renderPatch(patch: string, colors: Colors, options: RenderPatchOptions = {}): string {
  const { maxLines = DEFAULT_MAX_LINES, indent = '' } = options;
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const shown = lines.length > maxLines ? lines.slice(0, maxLines) : lines;
  const colored = colorDiffLines(shown, colors).map((line) => `${indent}${line}\n`);
  const hidden = lines.length - shown.length;
  if (hidden > 0)
    colored.push(`${indent}${colors.dim(`… ${hidden} more ${hidden === 1 ? 'line' : 'lines'}`)}\n`);
  return colored.join('');
}

/**
 * Inside a hunk its header's line counts say which lines belong to it, so a removed line that
 * reads "--- x" is not taken for a file header.
 */
function colorDiffLines(lines: readonly string[], colors: Colors): string[] {
  let oldLeft = 0;
  let newLeft = 0;
  return lines.map((line) => {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('-')) {
        oldLeft--;
        return colors.red(line);
      }
      if (line.startsWith('+')) {
        newLeft--;
        return colors.green(line);
      }
      if (line.startsWith('\\')) return colors.dim(line);
      oldLeft--;
      newLeft--;
      return line;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk !== null) {
      oldLeft = Number(hunk[1] ?? 1);
      newLeft = Number(hunk[2] ?? 1);
      return colors.cyan(line);
    }
    if (line.startsWith('@@')) return colors.cyan(line);
    if (line.startsWith('--- ') || line.startsWith('+++ ')) return colors.bold(line);
    // Outside a well-formed hunk (a hand-written diff): still colour what is plainly a change.
    if (line.startsWith('+')) return colors.green(line);
    if (line.startsWith('-')) return colors.red(line);
    return colors.dim(line);
  });
}
