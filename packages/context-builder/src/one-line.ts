/** `text` on one line: runs of whitespace (newlines included) become one space, ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether an optional text part was given: absent, empty and blank parts are left out. */
export function isGiven(text: string | undefined): text is string {
  return text !== undefined && text.trim() !== '';
}
