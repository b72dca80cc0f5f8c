// What text renders as a line break: the line terminators of JavaScript, plus vertical tab and form feed.
const LINE_BREAK = /[\n\r\v\f\u2028\u2029]/;
const LINE_BREAKS_AROUND = /\s*[\n\r\v\f\u2028\u2029]+\s*/g;

/** The first line of `text` that is not blank, trimmed ('' when there is none). */
export function firstLine(text: string): string {
  for (const line of text.split(LINE_BREAK)) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

/** True when `text` has more than one line that is not blank. */
export function hasSeveralLines(text: string): boolean {
  return text.split(LINE_BREAK).filter((line) => line.trim() !== '').length > 1;
}

/** `text` cut to `max` characters, the cut marked with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** `text` on one line: line breaks become spaces. */
export function singleLine(text: string): string {
  // Most summaries are one line already: no replace to run.
  if (!LINE_BREAK.test(text)) return text.trim();
  return text.replace(LINE_BREAKS_AROUND, ' ').trim();
}

/** "1 file", "12 files". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
