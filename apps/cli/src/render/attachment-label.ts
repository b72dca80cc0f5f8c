import {
  base64ByteLength,
  type ContentPart,
  contentParts,
  isMediaPart,
  type MessageContent,
} from '@cairn/core';

/** `310 KB`, `1.2 MB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A part that is not text, as one bracketed line: `[image: shot.png 1280×720, 310 KB]`,
 * `[file: report.pdf, 1.2 MB]`, `[image: https://…/a.png]`, `[audio]` for a type this version
 * does not know.
 */
export function attachmentLabel(part: ContentPart): string {
  if (!isMediaPart(part)) return `[${part.type}]`;
  const { source } = part;
  const name = part.fileName ?? (source.type === 'url' ? source.url : part.mediaType);
  const pixels =
    part.type === 'image' && part.width !== undefined && part.height !== undefined
      ? ` ${part.width}×${part.height}`
      : '';
  const size =
    source.type === 'blob'
      ? source.size
      : source.type === 'base64'
        ? base64ByteLength(source.data)
        : undefined;
  return `[${part.type}: ${name}${pixels}${size === undefined ? '' : `, ${formatBytes(size)}`}]`;
}

/** `content` as text for a view: text parts as they are, every other part as its `attachmentLabel` line. */
export function contentWithLabels(content: MessageContent | null | undefined): string {
  if (typeof content === 'string') return content;
  return contentParts(content)
    .map((part) =>
      part.type === 'text' && typeof part.text === 'string' ? part.text : attachmentLabel(part),
    )
    .join('\n');
}
