/** The value trimmed, or undefined when it is missing or only spaces. */
export const nonBlank = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();
