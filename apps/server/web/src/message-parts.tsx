import type { ContentPart, MessageContent } from '@cairn/core';
import { useEffect, useState } from 'preact/hooks';
import { fetchAttachment } from './api-client.js';
import { MarkdownView } from './markdown/markdown-view.js';

// Shown inline: raster images only (an SVG is a page a browser runs).
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Source =
  | { type: 'base64'; data: string }
  | { type: 'url'; url: string }
  | { type: 'blob'; sha256: string; size: number };
interface Media {
  type: 'image' | 'file';
  mediaType: string;
  source: Source;
  fileName?: string;
  width?: number;
  height?: number;
}

// The page bundles no part of @cairn/core (types only): parts are read by shape here.
function asMedia(part: ContentPart): Media | undefined {
  if (part.type !== 'image' && part.type !== 'file') return undefined;
  const source = part.source as Source | undefined;
  if (typeof part.mediaType !== 'string' || typeof source?.type !== 'string') return undefined;
  return part as unknown as Media;
}

/** `310 KB`, `1.2 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const byteSize = (source: Source): number | undefined =>
  source.type === 'blob'
    ? source.size
    : source.type === 'base64'
      ? Math.floor((source.data.length * 3) / 4) - (source.data.match(/=+$/)?.[0].length ?? 0)
      : undefined;

function label(media: Media): string {
  const name = media.fileName ?? (media.source.type === 'url' ? media.source.url : media.mediaType);
  const size = byteSize(media.source);
  return size === undefined ? name : `${name} (${formatSize(size)})`;
}

/**
 * A URL for a part's bytes: a `data:` URL for inline ones, an object URL of the bytes fetched with
 * the token for stored ones (released when the part goes away). `undefined` while loading.
 */
function useMediaUrl(conversationId: string, media: Media, load: boolean): { url?: string; failed?: string } {
  const { source } = media;
  const [state, setState] = useState<{ url?: string; failed?: string }>(() =>
    source.type === 'base64'
      ? { url: `data:${media.mediaType};base64,${source.data}` }
      : source.type === 'url'
        ? { url: source.url }
        : {},
  );
  const sha256 = source.type === 'blob' ? source.sha256 : undefined;
  useEffect(() => {
    if (sha256 === undefined || !load) return;
    const controller = new AbortController();
    let objectUrl: string | undefined;
    fetchAttachment(conversationId, sha256, controller.signal).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ url: objectUrl });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ failed: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl !== undefined) URL.revokeObjectURL(objectUrl);
    };
  }, [conversationId, sha256, load]);
  return state;
}

function ImagePart({ conversationId, media }: { conversationId: string; media: Media }) {
  const { url, failed } = useMediaUrl(conversationId, media, true);
  const name = media.fileName ?? 'image';
  if (failed !== undefined) return <p class="attachment-missing">{`${name}: ${failed}`}</p>;
  return (
    <figure class="attachment-image">
      {url === undefined ? (
        <div
          class="image-placeholder"
          role="img"
          aria-label={`${name} (loading)`}
          style={
            media.width && media.height ? { aspectRatio: `${media.width} / ${media.height}` } : undefined
          }
        />
      ) : (
        <img src={url} alt={name} width={media.width} height={media.height} />
      )}
      <figcaption>{label(media)}</figcaption>
    </figure>
  );
}

// A document: a link that fetches its bytes (with the token) when first clicked, then downloads them.
function FilePart({ conversationId, media }: { conversationId: string; media: Media }) {
  const [wanted, setWanted] = useState(media.source.type !== 'blob');
  const { url, failed } = useMediaUrl(conversationId, media, wanted);
  const name = media.fileName ?? 'file';
  useEffect(() => {
    // The bytes arrived after the click: save them now.
    if (wanted && url !== undefined && media.source.type === 'blob') {
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
    }
  }, [url]);
  return (
    <a
      class="attachment-file"
      href={url ?? '#'}
      download={name}
      rel="noopener"
      title={failed ?? media.mediaType}
      onClick={(event) => {
        if (url !== undefined) return;
        event.preventDefault();
        setWanted(true);
      }}
    >
      <span aria-hidden="true">📄 </span>
      {label(media)}
    </a>
  );
}

/**
 * A message's content: its text, images inline (stored ones fetched from the attachments route),
 * files as links. `markdown`: text parts are Markdown (the assistant's), else shown as written.
 */
export function MessageParts({
  conversationId,
  content,
  markdown = false,
}: {
  conversationId: string;
  content: MessageContent | null | undefined;
  markdown?: boolean;
}) {
  if (typeof content === 'string' && markdown) return <MarkdownView text={content} />;
  if (typeof content === 'string') return <>{content}</>;
  return (
    <>
      {(content ?? []).map((part, index) => {
        const media = asMedia(part);
        if (media === undefined && markdown && part.type === 'text')
          return <MarkdownView key={index} text={String(part.text)} />;
        if (media === undefined)
          return (
            <p key={index} class="part-text">
              {part.type === 'text' ? String(part.text) : `[${part.type}]`}
            </p>
          );
        if (media.type === 'image' && INLINE_IMAGE_TYPES.has(media.mediaType)) {
          return <ImagePart key={index} conversationId={conversationId} media={media} />;
        }
        return <FilePart key={index} conversationId={conversationId} media={media} />;
      })}
    </>
  );
}
