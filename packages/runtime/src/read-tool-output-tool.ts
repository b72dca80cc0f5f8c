import { CairnError, type ConversationStore, type Tool } from '@cairn/core';
import { defineTool, toolFailure } from '@cairn/loop';
import { decodeBlobText } from '@cairn/storage';
import { z } from 'zod';

/** The tool a model reads an offloaded output with: what the `[Full output: <ref>]` marker points at. */
export const READ_TOOL_OUTPUT_TOOL_NAME = 'read_tool_output';

/** Characters one call returns by default, and at most: well under any tool-result bound. */
const DEFAULT_LENGTH = 20_000;
const MAX_LENGTH = 40_000;

const ReadToolOutputInputSchema = z.object({
  ref: z.string().describe('The reference in the output’s "[Full output: <ref>]" marker.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'The first character to read (0: the start; the previous call’s result says where the rest starts).',
    ),
  length: z
    .number()
    .int()
    .min(1)
    .max(MAX_LENGTH)
    .optional()
    .describe(`How many characters to read (default ${DEFAULT_LENGTH}, at most ${MAX_LENGTH}).`),
});

// A slice that neither starts nor ends in the middle of a surrogate pair.
function codePointSlice(text: string, start: number, end: number): { text: string; end: number } {
  const isHigh = (index: number) => {
    const code = text.charCodeAt(index);
    return code >= 0xd800 && code <= 0xdbff;
  };
  const from = start > 0 && isHigh(start - 1) ? start - 1 : start;
  const to = end < text.length && isHigh(end - 1) ? end - 1 : end;
  return { text: text.slice(from, to), end: to };
}

/**
 * `read_tool_output({ ref, offset, length })`: a part of a tool output the store offloaded (the
 * model was sent its preview and `[Full output: <ref>]`), so the model can read on where the
 * preview stops. Only the outputs of the conversation the call is made in can be read.
 */
export function createReadToolOutputTool(store: Pick<ConversationStore, 'getBlob'>): Tool {
  return defineTool({
    name: READ_TOOL_OUTPUT_TOOL_NAME,
    description:
      'Read more of a tool output that was too long to send whole: it was shown as a preview ending in ' +
      '"[Full output: <ref>]". Pass that ref, and an offset to go on from where the last part ended.',
    category: 'read',
    idempotent: true,
    input: ReadToolOutputInputSchema,
    async execute({ ref, offset = 0, length = DEFAULT_LENGTH }, { conversationId }) {
      const ownPrefix = `tool-results/${conversationId}/`;
      if (conversationId === undefined || !ref.startsWith(ownPrefix) || ref.includes('..')) {
        throw toolFailure(
          `"${ref}" is not an output of this conversation: use the ref of a [Full output: …] marker.`,
          undefined,
          'TOOL_INVALID_INPUT',
        );
      }
      let text: string;
      try {
        text = decodeBlobText(await store.getBlob(ref));
      } catch (error) {
        if (CairnError.is(error, 'STORE_NOT_FOUND') || CairnError.is(error, 'INVALID_ID'))
          throw toolFailure(`There is no stored output "${ref}".`, undefined, 'TOOL_INVALID_INPUT');
        throw error;
      }
      if (offset >= text.length && !(offset === 0 && text.length === 0)) {
        throw toolFailure(
          `The output has ${text.length} characters: offset ${offset} is past its end.`,
          undefined,
          'TOOL_INVALID_INPUT',
        );
      }
      const part = codePointSlice(text, offset, Math.min(text.length, offset + length));
      const rest =
        part.end < text.length
          ? `; the rest: read_tool_output with offset ${part.end}`
          : '; this is the end of the output';
      return `${part.text}\n\n[Characters ${offset}-${part.end} of ${text.length}${rest}]`;
    },
  });
}
