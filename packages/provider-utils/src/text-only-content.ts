import { CairnError, contentText, isTextPart, type MessageContent } from '@cairn/core';

/**
 * The text of `content` where `provider` takes text only (a system prompt, a tool result of a
 * protocol without media): `UNSUPPORTED_CONTENT` when it holds an image, a file or another part.
 */
export function textOnlyContent(content: MessageContent, provider: string, where: string): string {
  if (typeof content !== 'string') {
    const other = content.find((part) => !isTextPart(part));
    if (other !== undefined) {
      throw new CairnError(
        'UNSUPPORTED_CONTENT',
        `${provider} takes text only in ${where}, not a ${other.type} part`,
        {
          details: { provider, partType: other.type },
        },
      );
    }
  }
  return contentText(content);
}
