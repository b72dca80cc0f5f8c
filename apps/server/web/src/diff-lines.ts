export type DiffLineKind = 'added' | 'removed' | 'hunk' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/**
 * The lines of a one-file unified diff, classified for colouring. The file headers (`---`/`+++`,
 * `Index:`) are left out: the card's summary names the file. After the first hunk header a line
 * starting with `-` is a removal even when it reads `--- x`.
 */
export function diffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let inHunks = false;
  for (const text of patch.split('\n')) {
    if (text.startsWith('@@')) {
      inHunks = true;
      lines.push({ kind: 'hunk', text });
    } else if (!inHunks) {
      // File headers before the first hunk.
    } else if (text.startsWith('+')) lines.push({ kind: 'added', text });
    else if (text.startsWith('-')) lines.push({ kind: 'removed', text });
    else if (text.startsWith('\\')) lines.push({ kind: 'note', text });
    else lines.push({ kind: 'context', text });
  }
  // The patch's final line break leaves an empty last line.
  if (lines.at(-1)?.text === '') lines.pop();
  return lines;
}
