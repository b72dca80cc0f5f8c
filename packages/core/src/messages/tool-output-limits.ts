/** Tool outputs larger than this many UTF-8 bytes go to the blob store; the log keeps a preview. */
export const TOOL_OUTPUT_THRESHOLD = 50 * 1024;

/** How many characters of an offloaded output stay inline as a preview. */
export const TOOL_OUTPUT_PREVIEW_LENGTH = 500;

/**
 * The line appended to an offloaded output's preview, so that a model (or a person) reading it
 * knows where the rest is: the store-relative reference of the full output.
 */
export function fullOutputMarker(ref: string): string {
  return `\n\n[Full output: ${ref}]`;
}
