import {
  acceptsMediaType,
  type ContentPart,
  isMediaPart,
  isTextPart,
  type MessageContent,
  partPlaceholder,
} from '@cairn/core';

function takes(part: ContentPart, inputMediaTypes: readonly string[]): boolean {
  return isTextPart(part) || (isMediaPart(part) && acceptsMediaType(inputMediaTypes, part.mediaType));
}

/**
 * A tool result the model can be sent: each part it cannot take (an image for a text-only model,
 * audio, a part type it does not know) becomes a text part saying what was there, so a screenshot
 * tool does not fail the turn of a model without vision (the adapter would refuse the request with
 * `UNSUPPORTED_CONTENT`). Text, and parts it takes, are unchanged; the tool's own output stays in
 * `structured`.
 */
export function toolContentForModel(
  content: MessageContent,
  inputMediaTypes: readonly string[] = [],
): MessageContent {
  if (typeof content === 'string' || content.every((part) => takes(part, inputMediaTypes))) return content;
  return content.map((part) => {
    if (takes(part, inputMediaTypes)) return part;
    const what = isMediaPart(part) ? part.mediaType : `a ${part.type} part`;
    return { type: 'text', text: `${partPlaceholder(part)} (not shown: this model cannot take ${what})` };
  });
}
