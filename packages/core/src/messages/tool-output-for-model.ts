import type { ContentPart, MessageContent } from '../content/content-part.js';
import { isTextPart } from '../content/content-text.js';
import { CairnError } from '../errors/cairn-error.js';
import { fullOutputMarker, TOOL_OUTPUT_THRESHOLD } from './tool-output-limits.js';

/**
 * The most characters of one tool result a model is sent by default: the most a Cairn store keeps
 * inline (anything longer is over `TOOL_OUTPUT_THRESHOLD` bytes, so it is offloaded and read as its
 * preview), so the bound never changes what a stored conversation sends.
 */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = TOOL_OUTPUT_THRESHOLD;

/** The fields of a tool message that decide what a model reads of it. */
export interface ToolOutputSource {
  content?: MessageContent | null | undefined;
  /** The store-relative reference of the full output, when the store offloaded it. */
  fullOutputPath?: string | undefined;
}

/**
 * The bound to apply: `DEFAULT_MAX_TOOL_RESULT_CHARS` when not given, `Infinity` for none.
 * `INVALID_ARGUMENT` for anything but a positive integer or `Infinity`.
 */
export function resolveMaxToolResultChars(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_TOOL_RESULT_CHARS;
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1)) return value;
  throw new CairnError(
    'INVALID_ARGUMENT',
    `maxToolResultChars must be a positive integer or Infinity, got ${value}`,
  );
}

// Cut at a code point boundary: half a surrogate pair is not text a provider accepts.
function head(text: string, length: number): string {
  const cut = text.slice(0, Math.max(0, length));
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function cutNote(kept: number, total: number): string {
  return `\n\n[Output cut: the first ${kept} of ${total} characters are shown. Call the tool again with narrower input (a range, a filter, a smaller command) to read the rest.]`;
}

// Output without a reference over the bound: its start, and a note saying how much is missing.
function cutOutput(content: string, maxChars: number): string {
  // The note's length with the largest count it can hold: the real one is never longer.
  const room = maxChars - cutNote(maxChars, content.length).length;
  const kept = head(content, room);
  return kept + cutNote(kept.length, content.length);
}

/**
 * What a model reads of a tool result — the one rule for the turn that produced it (the loop) and
 * for every later turn (the context builder), so both send the same text. An offloaded output
 * (`fullOutputPath`) is its stored preview with the `[Full output: <ref>]` reference; an output
 * without one longer than `maxChars` is cut to its start with a note of how much is missing and how
 * to read more. The reference and the note are kept whole: the result is at most `maxChars`
 * characters unless they alone are longer. `INVALID_ARGUMENT` for a bad `maxChars`.
 */
export function toolOutputForModel(
  message: ToolOutputSource & { content?: string | null | undefined },
  maxChars?: number,
): string;
/**
 * A result of parts (a tool that returned an image): its text parts, joined, follow the rule above
 * as one text part, and its other parts are kept after it, in their order.
 */
export function toolOutputForModel(message: ToolOutputSource, maxChars?: number): MessageContent;
export function toolOutputForModel(
  message: ToolOutputSource,
  maxChars: number = DEFAULT_MAX_TOOL_RESULT_CHARS,
): MessageContent {
  const { content } = message;
  if (!Array.isArray(content)) return textForModel(content ?? '', message.fullOutputPath, maxChars);
  const texts = content.filter(isTextPart).map((part) => part.text);
  const others: ContentPart[] = content.filter((part) => !isTextPart(part));
  const text = textForModel(texts.join('\n'), message.fullOutputPath, maxChars);
  return text === '' ? others : [{ type: 'text', text }, ...others];
}

function textForModel(content: string, ref: string | undefined, maxChars: number): string {
  const bound = resolveMaxToolResultChars(maxChars);
  if (ref === undefined) return content.length <= bound ? content : cutOutput(content, bound);
  const marker = fullOutputMarker(ref);
  const referenced = content.includes(marker.trim()) ? content : content + marker;
  if (referenced.length <= bound) return referenced;
  // A preview longer than the bound (written by another tool or store): cut, the reference kept.
  const preview = content.endsWith(marker) ? content.slice(0, -marker.length) : content;
  return head(preview, bound - marker.length) + marker;
}
