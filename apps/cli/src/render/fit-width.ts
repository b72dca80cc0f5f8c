/** `line` cut to `width` characters, the cut marked with "…"; as is when the width is unknown. */
export function fitWidth(line: string, width: number | undefined): string {
  if (width === undefined || line.length <= width) return line;
  // Never below a few characters: a tiny terminal still shows the start of the line.
  let keep = Math.max(width, 8) - 1;
  if (line.length <= keep + 1) return line;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(line.charAt(keep - 1))) keep -= 1;
  return `${line.slice(0, keep).trimEnd()}…`;
}

/** `text` on one line: its line breaks (and the blanks around them) as single spaces. */
export function flattenLines(text: string): string {
  return text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
}
