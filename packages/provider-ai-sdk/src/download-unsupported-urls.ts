import {
  bytesToBase64,
  CairnError,
  type ContentPart,
  isMediaPart,
  type MediaPart,
  type ModelMessage,
} from '@cairn/core';

/** A model's `supportedUrls`: URL patterns by media type (`image/*`, `*`) it fetches itself. */
export type SupportedUrls = Record<string, RegExp[]>;

export interface DownloadOptions {
  signal?: AbortSignal | undefined;
  fetch?: typeof globalThis.fetch;
}

/**
 * The messages with every image or file given by a URL the model does not fetch itself (its
 * `supportedUrls`) replaced by the downloaded bytes, as the AI SDK's `generateText` does before it
 * calls a model: Gemini takes only its own file URIs, many OpenAI-compatible servers no PDF URL.
 * A URL that cannot be downloaded is `UNSUPPORTED_CONTENT` naming it. Messages without such a part
 * are returned as they are.
 */
export async function downloadUnsupportedUrls(
  messages: readonly ModelMessage[],
  supportedUrls: SupportedUrls,
  options: DownloadOptions = {},
): Promise<ModelMessage[]> {
  const needsDownload = (part: ContentPart): part is MediaPart =>
    isMediaPart(part) &&
    part.source.type === 'url' &&
    !isUrlSupported(part.mediaType, part.source.url, supportedUrls);
  return Promise.all(
    messages.map(async (message) => {
      if ((message.role !== 'user' && message.role !== 'tool') || typeof message.content === 'string')
        return message;
      if (!message.content.some(needsDownload)) return message;
      const content = await Promise.all(
        message.content.map(async (part) => (needsDownload(part) ? download(part, options) : part)),
      );
      return { ...message, content } as ModelMessage;
    }),
  );
}

/** Whether the model fetches `url` of `mediaType` itself (the AI SDK's own rule). */
export function isUrlSupported(mediaType: string, url: string, supportedUrls: SupportedUrls): boolean {
  const type = mediaType.toLowerCase();
  return Object.entries(supportedUrls).some(([key, patterns]) => {
    const pattern = key.toLowerCase();
    const matches =
      pattern === '*' || pattern === '*/*'
        ? true
        : pattern.endsWith('/*')
          ? type.startsWith(pattern.slice(0, -1))
          : type === pattern;
    return (
      matches &&
      patterns.some((regex) => new RegExp(regex.source, regex.flags.replace(/[gy]/g, '')).test(url))
    );
  });
}

async function download(
  part: MediaPart,
  { signal, fetch = globalThis.fetch }: DownloadOptions,
): Promise<MediaPart> {
  const url = part.source.type === 'url' ? part.source.url : '';
  let response: Response;
  try {
    response = await fetch(url, signal === undefined ? {} : { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw downloadFailed(url, part, `it could not be fetched: ${(error as Error).message}`, error);
  }
  if (!response.ok) throw downloadFailed(url, part, `fetching it answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { ...part, source: { type: 'base64', data: bytesToBase64(bytes) } };
}

function downloadFailed(url: string, part: MediaPart, why: string, cause?: unknown): CairnError {
  return new CairnError(
    'UNSUPPORTED_CONTENT',
    `the model does not fetch ${url} (${part.mediaType}) itself, and ${why}`,
    { ...(cause === undefined ? {} : { cause }), details: { url, mediaType: part.mediaType } },
  );
}
