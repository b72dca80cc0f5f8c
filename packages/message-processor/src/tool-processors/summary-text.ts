// What text renders as a line break: the line terminators of JavaScript, plus vertical tab and form feed.
const LINE_BREAKS_AROUND = /\s*[\n\r\v\f\u2028\u2029]+\s*/g;

// Where the line starting at `start` ends: at its line break, or at the end of the text. (A loop
// rather than a regex or a generator of lines: these run on every command shown.)
function lineEnd(text: string, start: number): number {
  for (let index = start; index < text.length; index++) if (isLineBreak(text.charCodeAt(index))) return index;
  return text.length;
}

/** The first line of `text` that is not blank, trimmed ('' when there is none). */
export function firstLine(text: string): string {
  for (let start = 0; start <= text.length; ) {
    const end = lineEnd(text, start);
    const line = text.slice(start, end).trim();
    if (line !== '') return line;
    start = end + 1;
  }
  return '';
}

/** True when `text` has more than one line that is not blank. */
export function hasSeveralLines(text: string): boolean {
  let count = 0;
  for (let start = 0; start <= text.length; ) {
    const end = lineEnd(text, start);
    if (text.slice(start, end).trim() !== '' && ++count > 1) return true;
    start = end + 1;
  }
  return false;
}

/** `text` cut to `max` characters, the cut marked with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

function isLineBreak(code: number): boolean {
  // \n \v \f \r are 10 to 13.
  return (code >= 10 && code <= 13) || code === 0x2028 || code === 0x2029;
}

/** `text` on one line: line breaks become spaces. */
export function singleLine(text: string): string {
  // Most summaries are one line already: no replace to run. (A loop: a regex costs more on short text.)
  for (let index = 0; index < text.length; index++) {
    if (isLineBreak(text.charCodeAt(index))) return text.replace(LINE_BREAKS_AROUND, ' ').trim();
  }
  return text.trim();
}

/** "1 file", "12 files". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
