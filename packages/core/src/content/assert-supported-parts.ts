import { CairnError } from '../errors/cairn-error.js';
import type { ModelMessage } from '../messages/model-message.js';
import { type ContentPart, isMediaPart } from './content-part.js';

/** Whether `mediaType` is in `accepted` (`image/*` accepts any image). */
export function acceptsMediaType(accepted: readonly string[], mediaType: string): boolean {
  return accepted.some((entry) =>
    entry.endsWith('/*') ? mediaType.startsWith(entry.slice(0, -1)) : entry === mediaType,
  );
}

/** What a model takes, for `assertSupportedParts`. */
export interface SupportedParts {
  /** The adapter, named in the error (`anthropic`). */
  provider: string;
  modelId: string;
  /** Media types of image and file parts the model takes (`ModelCapabilities.inputMediaTypes`). */
  mediaTypes: readonly string[];
  /** Whether a part may give its bytes by URL (Gemini takes only its own file URIs, say). */
  urls?: boolean;
  /** Whether tool results may hold images and files (OpenAI Chat's may not: the adapter moves them). */
  inToolResults?: boolean;
}

function refuse(support: SupportedParts, index: number, part: ContentPart, problem: string): CairnError {
  return new CairnError('UNSUPPORTED_CONTENT', `${support.provider} model ${support.modelId} ${problem}`, {
    details: {
      provider: support.provider,
      modelId: support.modelId,
      messageIndex: index,
      partType: part.type,
      mediaType: isMediaPart(part) ? part.mediaType : null,
      accepted: [...support.mediaTypes],
    },
  });
}

/**
 * Refuses, before anything is sent, a request holding a part the model cannot take: a part type it
 * does not know (`audio` from a newer writer), a media type it does not accept, a URL where it takes
 * only inline bytes, or media in a tool result where it takes none. `UNSUPPORTED_CONTENT` names the
 * message, the part and what is accepted.
 */
export function assertSupportedParts(messages: readonly ModelMessage[], support: SupportedParts): void {
  messages.forEach((message, index) => {
    if ((message.role !== 'user' && message.role !== 'tool') || typeof message.content === 'string') return;
    for (const part of message.content) {
      if (part.type === 'text') continue;
      if (part.type !== 'image' && part.type !== 'file') {
        throw refuse(support, index, part, `cannot take a ${part.type} part (message ${index})`);
      }
      const mediaType = String(part.mediaType);
      if (!acceptsMediaType(support.mediaTypes, mediaType)) {
        throw refuse(
          support,
          index,
          part,
          `cannot take ${mediaType} (message ${index}); it takes ${support.mediaTypes.join(', ') || 'text only'}`,
        );
      }
      if (message.role === 'tool' && support.inToolResults === false) {
        throw refuse(
          support,
          index,
          part,
          `cannot take ${part.type} parts in tool results (message ${index})`,
        );
      }
      const source = part.source as { type?: unknown } | undefined;
      if (source?.type === 'url' && support.urls === false) {
        throw refuse(
          support,
          index,
          part,
          `takes ${part.type} parts inline only, not by URL (message ${index})`,
        );
      }
    }
  });
}
