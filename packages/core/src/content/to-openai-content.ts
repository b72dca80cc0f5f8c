import { CairnError } from '../errors/cairn-error.js';
import type { OpenAIUserContentPart } from '../messages/openai-chat-message.js';
import type { ContentPart, MediaPart } from './content-part.js';

function unsupported(messageId: string, index: number, problem: string): CairnError {
  return new CairnError('UNSUPPORTED_CONTENT', `Message ${messageId} part ${index}: ${problem}`, {
    details: { messageId, index, provider: 'openai' },
  });
}

/** A media part's bytes as a URL: its `https:` URL, or a `data:` URL of its base64. */
export function mediaPartUrl(part: MediaPart, messageId: string, index: number): string {
  const { source } = part;
  if (source.type === 'url') return source.url;
  if (source.type === 'base64') return `data:${part.mediaType};base64,${source.data}`;
  throw new CairnError(
    'INVALID_MESSAGE',
    `Message ${messageId} part ${index}: its bytes are in the store (blob ${source.sha256.slice(0, 12)}…); read them first with @cairn/storage's resolveContentParts`,
    { details: { messageId, index, sha256: source.sha256 } },
  );
}

/**
 * Cairn parts as OpenAI Chat Completions user content: text, `image_url` (an https or data URL) and
 * `file` (a PDF or other document as a data URL; OpenAI takes no file by URL). A part it cannot
 * carry is `UNSUPPORTED_CONTENT`.
 */
export function toOpenAIUserContent(
  parts: readonly ContentPart[],
  messageId: string,
): OpenAIUserContentPart[] {
  return parts.map((part, index): OpenAIUserContentPart => {
    if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
    if (part.type === 'image') {
      return { type: 'image_url', image_url: { url: mediaPartUrl(part as MediaPart, messageId, index) } };
    }
    if (part.type === 'file') {
      const file = part as MediaPart;
      if (file.source.type === 'url')
        throw unsupported(messageId, index, 'OpenAI Chat takes files inline only, not by URL');
      const data = mediaPartUrl(file, messageId, index);
      return {
        type: 'file',
        file:
          file.fileName === undefined ? { file_data: data } : { filename: file.fileName, file_data: data },
      };
    }
    throw unsupported(messageId, index, `OpenAI Chat cannot take a ${part.type} part`);
  });
}
